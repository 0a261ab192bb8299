/** Who is signed in: email, name and plan (and what the free plan cannot do). */
import type { Account } from '../api';

export function AccountFacts({ account }: { account: Account }) {
  return (
    <dl className="facts">
      <dt>Email</dt>
      <dd>{account.email}</dd>
      <dt>Name</dt>
      <dd>{account.name ?? '—'}</dd>
      <dt>Plan</dt>
      <dd>
        <span className={`badge plan-${account.plan}`}>{account.plan}</span>
        {account.plan === 'free' && (
          <span className="hint">
            {' '}
            The free plan has no API access: your keys get 403 until an operator moves you to pro or team.
          </span>
        )}
      </dd>
    </dl>
  );
}
