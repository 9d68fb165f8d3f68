import type { Config } from '../config/config.js';
import type { Storage } from '../storage/storage.js';
import { createUploadBackend, type UploadBackend } from './upload-backends.js';

const backends = new WeakMap<Storage, UploadBackend>();

/**
 * One upload backend per storage, shared by the routes and the jobs of a process: the running
 * hashes of uploads in progress live in it.
 */
export function uploadBackendFor(config: Config, storage: Storage): UploadBackend {
  let backend = backends.get(storage);
  if (!backend) {
    backend = createUploadBackend(config, storage);
    backends.set(storage, backend);
  }
  return backend;
}
