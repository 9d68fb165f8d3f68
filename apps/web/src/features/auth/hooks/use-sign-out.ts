import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/auth/session/session-context';

/** Signs out everywhere and returns to the site root, the spec's sign-out target (§2). */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    await navigate('/', { replace: true });
  }, [signOut, navigate]);
}
