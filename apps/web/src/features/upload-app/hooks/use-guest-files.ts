import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteGuestFile, listGuestFiles } from '../api/guest-link';
import { guestToken } from './use-guest-link';

export const guestFileKeys = {
  list: (linkToken: string) => ['guest-files', linkToken] as const,
};

/** What this browser's guest sent through the link (GET /guest/files). */
export function useGuestFilesQuery(linkToken: string) {
  return useQuery({
    queryKey: guestFileKeys.list(linkToken),
    queryFn: async () => listGuestFiles(await guestToken(linkToken)),
  });
}

/** Takes one back, within the hour the API allows. */
export function useDeleteGuestFileMutation(linkToken: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fileId: string) => deleteGuestFile(await guestToken(linkToken), fileId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guestFileKeys.list(linkToken) }),
  });
}
