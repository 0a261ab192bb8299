/** Loading data from the API in a page: the answer, the API's error message, a reload; stale answers are dropped. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './components/form';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** Runs `load` whenever `key` changes; only the answer to the latest call is kept. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const run = useCallback(() => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    loader.current().then(
      (data) => call === latest.current && setState({ data, loading: false }),
      (err: unknown) => call === latest.current && setState((s) => ({ data: s.data, error: messageOf(err), loading: false })),
    );
  }, []);
  useEffect(run, [key, run]);
  return { data: state.data, error: state.error, loading: state.loading, reload: run };
}

/** `value`, once it stopped changing for `ms` (search as you type). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
