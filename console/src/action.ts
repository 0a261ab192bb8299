/**
 * A write's life on a page, without React: busy while it runs, then the
 * success text it returned or the API's message. `useAction` (hooks.ts) is
 * this state held by a component; the rules are here, where a unit test
 * reaches them.
 */
import { messageOf } from './messages';

/** What a page shows of its last action: the button busy, the error (`role="alert"`), the success text (`role="status"`). */
export interface ActionState {
  busy: boolean;
  error?: string;
  status?: string;
}

export type ActionEvent =
  | { type: 'start' }
  | { type: 'done'; status?: string }
  | { type: 'failed'; error: string }
  /** the page's own check refused before any request: an action in flight stays busy */
  | { type: 'refused'; error: string }
  | { type: 'clear' };

export const IDLE: ActionState = { busy: false };

/** A new action wipes the last one's words; settling ends busy with its own; a refusal or `clear` leaves busy as it was. */
export function reduceAction(state: ActionState, event: ActionEvent): ActionState {
  switch (event.type) {
    case 'start':
      return { busy: true };
    case 'done':
      return { busy: false, status: event.status };
    case 'failed':
      return { busy: false, error: event.error };
    case 'refused':
      return { busy: state.busy, error: event.error };
    case 'clear':
      return { busy: state.busy };
  }
}

export interface ActionOptions {
  /** the text of a failure: the API's own message by default */
  describe?(err: unknown): string;
  /**
   * A run while one is running waits its turn: for an action several
   * controls share, each its own write (the rows of a list). Without it
   * that run is dropped, as a form's second submit is the same write again.
   * A run that waits reads the page later: take what it needs from the
   * event first (a controlled select's value is reset once the event ends).
   */
  queue?: boolean;
}

/**
 * Runs a component's action, one at a time: a second submit while one runs
 * is dropped (a double click creates one collection, not two), or waits
 * its turn with `queue`. With none running, the action starts at once,
 * within the event that asked for it. Once the component is gone
 * (`detach`) nothing new starts, and an action that settles later changes
 * nothing on screen. Whatever the action throws becomes its error text;
 * `run` never rejects.
 */
export class ActionRunner {
  /** runs started or waiting their turn */
  private pending = 0;
  private attached = true;
  private last: Promise<boolean> = Promise.resolve(true);

  constructor(
    private readonly dispatch: (event: ActionEvent) => void,
    private readonly options: ActionOptions = {},
  ) {}

  /** true when the action ran and succeeded; false when it failed or was dropped. */
  run(action: () => Promise<string | void>): Promise<boolean> {
    if (this.pending > 0 && !this.options.queue) return Promise.resolve(false);
    this.pending += 1;
    const turn = (this.pending > 1 ? this.last.then(() => this.once(action)) : this.once(action)).finally(() => {
      this.pending -= 1;
    });
    this.last = turn;
    return turn;
  }

  /** The component is on screen (again: React may mount a component twice in development); returns its `detach`. */
  attach(): () => void {
    this.attached = true;
    return () => {
      this.attached = false;
    };
  }

  private async once(action: () => Promise<string | void>): Promise<boolean> {
    if (!this.attached) return false;
    this.dispatch({ type: 'start' });
    try {
      const status = await action();
      this.settle({ type: 'done', status: status ?? undefined });
      return true;
    } catch (err) {
      this.settle({ type: 'failed', error: (this.options.describe ?? messageOf)(err) });
      return false;
    }
  }

  private settle(event: ActionEvent): void {
    if (this.attached) this.dispatch(event);
  }
}
