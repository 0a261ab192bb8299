/**
 * Where the gateway is reached from a browser (PUBLIC_URL): the origin
 * state-changing requests must come from, whether cookies can be Secure, and
 * the base of the links it hands out.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class Site {
  /** `url()`: the public URL, read when needed (a test gateway learns its port after listening) */
  constructor(private readonly url: () => string) {}

  get publicUrl(): string {
    return this.url().replace(/\/+$/, '');
  }

  /** Plain HTTP on this machine: the one case where cookies cannot be Secure. */
  get plainLoopback(): boolean {
    const url = new URL(this.publicUrl);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  }

  /** Origins a browser may send state-changing requests from: the public one (and its loopback aliases). */
  get allowedOrigins(): Set<string> {
    const url = new URL(this.publicUrl);
    if (!LOOPBACK_HOSTS.has(url.hostname)) return new Set([url.origin]);
    const port = url.port ? `:${url.port}` : '';
    return new Set([...LOOPBACK_HOSTS].map((host) => `${url.protocol}//${host}${port}`));
  }

  link(path: string): string {
    return `${this.publicUrl}${path}`;
  }
}
