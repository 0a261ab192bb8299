/** An endpoint's delivery log, newest first, ten a page: what was sent, how it went, when it is tried again. */
import { useState } from 'react';
import { client } from '../api';
import { when } from '../format';
import { useLoad } from '../hooks';
import { Pager } from './pagination';
import { Empty, WhenLoaded } from './states';

export function WebhookDeliveries({
  workspaceId,
  webhookId,
  url,
}: {
  workspaceId: string;
  webhookId: string;
  url: string;
}) {
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () => client.listWebhookDeliveriesPage(workspaceId, webhookId, { limit: 10, page }),
    `${webhookId}/${page}`,
  );
  return (
    <div className="deliveries">
      <div className="actions">
        <button type="button" onClick={() => void loaded.reload()}>
          Refresh deliveries
        </button>
      </div>
      <WhenLoaded
        loaded={loaded}
        what="the deliveries"
        isEmpty={(d) => d.deliveries.length === 0}
        empty={<Empty title="Nothing delivered yet." />}
      >
        {({ deliveries, pagination }) => (
          <>
            <div className="table-wrap">
              <table aria-label={`Deliveries to ${url}`}>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Next attempt</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.map((d) => (
                    <tr key={d.id}>
                      <td>{d.eventType}</td>
                      <td>
                        <span className={`badge delivery-${d.status}`}>{d.status}</span>
                      </td>
                      <td>{d.attempts}</td>
                      <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                      <td>{when(d.nextAttemptAt)}</td>
                      <td>{when(d.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager pagination={pagination} onPage={setPage} label="Delivery pages" />
          </>
        )}
      </WhenLoaded>
    </div>
  );
}
