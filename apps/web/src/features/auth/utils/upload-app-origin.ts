/**
 * `?app=upload` on the team app's forgot-password and sign-up pages: the visitor came from the
 * upload app's sign-in (/upload/signin), and the way back leads there, not to the team app's
 * sign-in. The installed upload app has no address bar, so without it a contributor who opened
 * "Forgot password?" would be left in the team app.
 */
import { UPLOAD_SIGN_IN_PATH } from '../../../lib/upload-paths';

const PARAM = 'app';
const UPLOAD = 'upload';

export function isFromUploadApp(search: URLSearchParams): boolean {
  return search.get(PARAM) === UPLOAD;
}

/** `path` marked as reached from the upload app when `fromUploadApp`. */
export function markFromUploadApp(path: string, fromUploadApp: boolean): string {
  return fromUploadApp ? `${path}?${PARAM}=${UPLOAD}` : path;
}

/** The sign-in page to go back to. */
export function signInPathFor(search: URLSearchParams): string {
  return isFromUploadApp(search) ? UPLOAD_SIGN_IN_PATH : '/auth/signin';
}
