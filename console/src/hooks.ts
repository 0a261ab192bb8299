/**
 * Loading data from the API: the answer, the API's error message, a reload;
 * stale answers are dropped. Every page and section that loads data uses
 * `useLoad` and shows it with `WhenLoaded` (components/states.tsx), so
 * loading, errors and "try again" look and behave the same everywhere.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './components/form';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Loads again, keeping the last answer on show meanwhile; settles once the new answer (or error) is in. */
  reload(): Promise<void>;
}

/** Runs `load` whenever `key` changes; only the answer to the latest call is kept. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const run = useCallback(async () => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await loader.current();
      if (call === latest.current) setState({ data, loading: false });
    } catch (err) {
      if (call === latest.current) setState((s) => ({ data: s.data, error: messageOf(err), loading: false }));
    }
  }, []);
  useEffect(() => {
    void run();
  }, [key, run]);
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
