import type { FileItem } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { collectionKeys, collectionPath, fileKeys, filesPath } from './file-keys';

type FileRef = Pick<FileItem, 'teamId' | 'collectionId' | 'fileId'>;

/** PUT (read) or DELETE (unread) …/files/{fileId}/read: the caller's own mark; 204. */
export function setFileRead(request: AuthedRequest, file: FileRef, read: boolean): Promise<void> {
  return request(`${filesPath(file.teamId, file.collectionId, file.fileId)}/read`, {
    method: read ? 'PUT' : 'DELETE',
    schema: z.undefined(),
  });
}

export interface CollectionRef {
  teamId: string;
  collectionId: string;
}

/**
 * PUT …/collections/{collectionId}/read marks the collection and all its files read ("Mark all
 * as read"); DELETE marks the collection unread, its files keeping their marks. 204.
 */
export function setCollectionRead(
  request: AuthedRequest,
  collection: CollectionRef,
  read: boolean,
): Promise<void> {
  return request(`${collectionPath(collection.teamId, collection.collectionId)}/read`, {
    method: read ? 'PUT' : 'DELETE',
    schema: z.undefined(),
  });
}

/** "Mark as read" / "Mark as unread" of one file; the collection's lists show it after. */
export function useFileReadMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, read }: { file: FileItem; read: boolean }) =>
      setFileRead(request, file, read),
    onSuccess: (_data, { file }) =>
      queryClient.invalidateQueries({ queryKey: fileKeys.lists(file.teamId, file.collectionId) }),
  });
}

/** "Mark all as read" (read) or a collection's "Mark as unread"; every list showing it follows. */
export function useCollectionReadMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collection, read }: { collection: CollectionRef; read: boolean }) =>
      setCollectionRead(request, collection, read),
    onSuccess: (_data, { collection }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.all(collection.teamId) }),
        queryClient.invalidateQueries({
          queryKey: fileKeys.lists(collection.teamId, collection.collectionId),
        }),
      ]),
  });
}
