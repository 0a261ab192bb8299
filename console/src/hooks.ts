/**
 * The console's hooks. Loading data from the API: the answer, the API's
 * error message, a reload; stale answers are dropped. Every page and
 * section that loads data uses `useLoad` and shows it with `WhenLoaded`
 * (components/states.tsx), so loading, errors and "try again" look and
 * behave the same everywhere. Writing, the one way too: `useAction` (busy,
 * the API's error, the success text; action.ts). Then a debounced value,
 * the clipboard, and the redeeming of a one-time link.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ActionRunner, IDLE, reduceAction, type ActionOptions, type ActionState } from './action';
import { ApiError, type SignedIn } from './api';
import { messageOf } from './messages';
import { takeFragment } from './router';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** whether loading again may succeed: not after a refusal (a 4xx but 408 and 429), which the same request meets again */
  retryable: boolean;
  loading: boolean;
  /** Loads again, keeping the last answer on show meanwhile; settles once the new answer (or error) is in. */
  reload(): Promise<void>;
}

/** Runs `load` whenever `key` changes; only the answer to the latest call is kept. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; retryable?: boolean; loading: boolean }>({
    loading: true,
  });
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
      if (call === latest.current)
        setState((s) => ({ data: s.data, error: messageOf(err), retryable: mayPassLater(err), loading: false }));
    }
  }, []);
  useEffect(() => {
    void run();
  }, [key, run]);
  return {
    data: state.data,
    error: state.error,
    retryable: state.retryable ?? true,
    loading: state.loading,
    reload: run,
  };
}

/** An unreachable or overloaded API (5xx, 408, 429, no answer) may answer later; a refused request (other 4xx) will not. */
function mayPassLater(err: unknown): boolean {
  if (!(err instanceof ApiError)) return true;
  return err.status >= 500 || err.status === 408 || err.status === 429;
}

export interface Action<A extends unknown[]> extends ActionState {
  /**
   * Runs the action with `args`, unless one is running (then the run is
   * dropped, or waits its turn with `queue`); settles when it has, true
   * when it succeeded.
   */
  run(...args: A): Promise<boolean>;
  /** Shows `error` as the action's, without a request (the page's own check, a code in the address). */
  fail(error: string): void;
  /** Forgets the last error and success text (a dialog opened again). */
  clear(): void;
}

/**
 * A write from a page: `action` makes the calls and returns the text to
 * show on success (or nothing); what it throws is shown as its error (the
 * API's message unless `options.describe` words it; options are read once).
 * Render `busy` on the button, and the error and the text with
 * `<Outcome of={…} />` or `<ErrorMessage message={….error} />`
 * (components/form.tsx); a form submits with `onSubmit={submitTo(….run)}`.
 */
export function useAction<A extends unknown[]>(
  action: (...args: A) => Promise<string | void>,
  options?: ActionOptions,
): Action<A> {
  const [state, dispatch] = useReducer(reduceAction, IDLE);
  const latest = useRef(action);
  latest.current = action;
  const [runner] = useState(() => new ActionRunner(dispatch, options));
  useEffect(() => runner.attach(), [runner]);
  const run = useCallback((...args: A) => runner.run(() => latest.current(...args)), [runner]);
  const fail = useCallback((error: string) => dispatch({ type: 'refused', error }), []);
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);
  return { ...state, run, fail, clear };
}

/**
 * Copying to the clipboard with a line that says what happened: `copied` once
 * it is there, `refused` when the browser does not allow it (no permission,
 * not a secure context), so the person knows to select the text instead.
 */
export function useCopy(): [
  said: string | undefined,
  copy: (text: string, copied: string, refused: string) => Promise<void>,
] {
  const [said, setSaid] = useState<string>();
  const copy = useCallback(async (text: string, copied: string, refused: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid(copied);
    } catch {
      setSaid(refused);
    }
  }, []);
  return [said, copy];
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

export interface Redeemed {
  state: 'redeeming' | 'redeemed' | 'failed';
  error?: string;
}

/**
 * Redeems the `#token=` of a one-time link once (the link is single-use, and
 * React may run effects twice in development), and hands the session it
 * opens to `onSignedIn`.
 */
export function useOneTimeLink(
  redeem: (token: string) => Promise<SignedIn>,
  onSignedIn: (s: SignedIn) => void,
  noToken: string,
): Redeemed {
  const [redeemed, setRedeemed] = useState<Redeemed>({ state: 'redeeming' });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = takeFragment('token');
    if (!token) return setRedeemed({ state: 'failed', error: noToken });
    redeem(token).then(
      (s) => {
        onSignedIn(s);
        setRedeemed({ state: 'redeemed' });
      },
      (err: unknown) => setRedeemed({ state: 'failed', error: messageOf(err) }),
    );
  }, [onSignedIn]);
  return redeemed;
}
