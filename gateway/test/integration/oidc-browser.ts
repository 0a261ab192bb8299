/**
 * A browser for the OpenID Connect tests: cookies by origin, redirects taken
 * by hand, and the test provider's login and consent pages submitted.
 */
/** Cookies by origin, as a browser keeps them (enough for two loopback servers). */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async fetch(
    url: string,
    init: { method?: string; form?: Record<string, string>; json?: object; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers: Record<string, string> = {
      ...init.headers,
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    if (init.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(eq + 1) === '';
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1));
    }
    return res;
  }

  /** Drops the cookies of `origin`: signed out there (the provider asks who you are again). */
  forget(origin: string): void {
    this.jars.delete(origin);
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  /**
   * Follows redirects from `url`, submitting the provider's login (as `login`)
   * and consent pages, until a redirect leaves for `until`; that Location.
   */
  async signInAt(url: string, login: string, until: string): Promise<string> {
    let next = url;
    for (let step = 0; step < 20; step += 1) {
      const res = await this.fetch(next);
      const location = res.headers.get('location');
      if (location) {
        next = new URL(location, next).href;
        if (!next.startsWith(until)) continue;
        return next;
      }
      const page = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (res.status !== 200 || !prompt)
        throw new Error(`unexpected provider page ${res.status} at ${next}: ${page.slice(0, 300)}`);
      const submitted = await this.fetch(next, {
        method: 'POST',
        form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
      });
      next = new URL(submitted.headers.get('location') ?? '', next).href;
    }
    throw new Error('the sign-in did not come back within 20 steps');
  }
}
