/** The query of the changes feed (skill-changes.routes.ts). */
import Joi from 'joi';

interface ChangesQuery {
  since?: string;
  limit: number;
}

/** `since`: a nextCursor (absent: from the start); `limit` 1..500. Anything else is refused, as in search. */
export const changesQuery = Joi.object<ChangesQuery>({
  since: Joi.string().max(200),
  limit: Joi.number().integer().min(1).max(500).default(100),
});
