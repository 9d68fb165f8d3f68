import type { HttpResponse } from 'tus-js-client';
import type { FakeTusServer } from './fake-tus-server';

/**
 * XMLHttpRequest as tus-js-client's browser stack uses it, answered by a FakeTusServer: lets the
 * screens run the real upload code without a network.
 */
export function fakeXhrFor(server: FakeTusServer) {
  return class FakeXhr {
    method = '';
    url = '';
    status = 0;
    responseText = '';
    upload: {
      onprogress: ((event: { lengthComputable: boolean; loaded: number }) => void) | null;
    } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: ((error: unknown) => void) | null = null;
    private readonly headers: Record<string, string> = {};
    private response: HttpResponse | null = null;
    private aborted = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader(name: string): string | null {
      return this.response?.getHeader(name) ?? null;
    }
    abort() {
      this.aborted = true;
    }
    send(body: unknown) {
      const request = server.createRequest(this.method, this.url);
      for (const [name, value] of Object.entries(this.headers)) request.setHeader(name, value);
      request.setProgressHandler((loaded) =>
        this.upload.onprogress?.({ lengthComputable: true, loaded }),
      );
      request.send(body).then(
        (response) => {
          if (this.aborted) return;
          this.response = response;
          this.status = response.getStatus();
          this.responseText = response.getBody();
          this.onload?.();
        },
        (error: unknown) => {
          if (!this.aborted) this.onerror?.(error);
        },
      );
    }
  };
}
