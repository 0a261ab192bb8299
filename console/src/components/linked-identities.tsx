/**
 * The single sign-on identities linked to the account, on the profile: each
 * is a way into the account, so its owner sees every one and can remove it
 * (the server keeps the last way in of an account without a password).
 * Linking one needs a recent sign-in: the password dialog asks for it.
 */
import { useEffect, useState } from 'react';
import { client, type LinkedIdentity } from '../api';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { Outcome } from './form';
import { useRecentSignIn } from './recent-sign-in';
import { Empty, WhenLoaded } from './states';
import { TableHead } from './table-head';

export function LinkedIdentities() {
  const loaded = useLoad(() => client.listIdentities(), 'identities');
  const [provider, setProvider] = useState<string>();
  const { guard, dialog } = useRecentSignIn();
  useEffect(() => {
    client.authOptions().then(
      (options) => setProvider(options.oidc?.name),
      () => setProvider(undefined),
    );
  }, []);
  const act = useAction(
    async (write: () => Promise<string | void>) => {
      const done = await write();
      await loaded.reload();
      return done;
    },
    { queue: true },
  );
  const remove = (identity: LinkedIdentity) =>
    act.run(() =>
      client
        .removeIdentity(identity.id)
        .then(() => 'Single sign-on identity unlinked: it no longer signs in to this account.'),
    );
  // the provider sends the browser back to the profile once the identity is linked
  const link = () => act.run(async () => window.location.assign((await guard(() => client.oidcLink())).url));

  return (
    <>
      <WhenLoaded
        loaded={loaded}
        what="your linked identities"
        isEmpty={(d) => d.length === 0}
        empty={<Empty title="No single sign-on identity is linked to this account." />}
      >
        {(identities) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Single sign-on identities that sign in to your account</caption>
              <TableHead columns={['Provider', 'Identity', 'Linked']} />
              <tbody>
                {identities.map((i) => (
                  <tr key={i.id}>
                    <td className="issuer">{i.issuer}</td>
                    <td>{i.subject}</td>
                    <td>{when(i.createdAt)}</td>
                    <td className="row-actions">
                      <button type="button" onClick={() => void remove(i)}>
                        Remove
                        <span className="visually-hidden">
                          {' '}
                          identity {i.subject} of {i.issuer}
                        </span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </WhenLoaded>
      {provider && (
        <button type="button" onClick={() => void link()}>
          Link {provider}
        </button>
      )}
      <Outcome of={act} />
      {dialog}
    </>
  );
}
