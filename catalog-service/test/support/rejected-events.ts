/** Stand-ins for the dead-letter store where an event log sends the events it refuses. */
import type { RejectedEvent, RejectedEventSink } from '../../src/events/rejected-events';

/** Records every refused event with its group. */
export function recordingSink(): RejectedEventSink & { rejected: Array<RejectedEvent & { group: string }> } {
  const rejected: Array<RejectedEvent & { group: string }> = [];
  return { rejected, reject: async (group, events) => void rejected.push(...events.map((e) => ({ ...e, group }))) };
}

/** For suites that publish only valid events: a refusal fails the batch loudly instead of passing unnoticed. */
export const REFUSE_NOTHING: RejectedEventSink = {
  reject: async (_group, events) => {
    throw new Error(`unexpected refused events: ${events.map((e) => e.reason).join('; ')}`);
  },
};
