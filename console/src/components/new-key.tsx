/** A key just made: shown once, with a copy button and a ready curl line. */
import type { NewApiKey } from '../api';
import { useCopy } from '../hooks';
import { Status } from './form';

const REFUSED = 'Copying is not allowed here: select the text and copy it.';

export function NewKeyPanel({ apiKey, onDone }: { apiKey: NewApiKey; onDone(): void }) {
  const [copied, copy] = useCopy();
  const curl = `curl -s -H "Authorization: Bearer ${apiKey.key}" "${window.location.origin}/api/v1/skills?q=docker&limit=5"`;

  return (
    <section className="card new-key" aria-labelledby="new-key-title" tabIndex={-1} ref={(el) => el?.focus()}>
      <h2 id="new-key-title">Your new key “{apiKey.name}”</h2>
      <p>
        <strong>Copy it now:</strong> it is shown only once. The server keeps only a hash of it.
      </p>
      <div className="secret">
        <code aria-label="The new API key">{apiKey.key}</code>
        <button type="button" onClick={() => copy(apiKey.key, 'Key copied to the clipboard.', REFUSED)}>
          Copy key
        </button>
      </div>
      <p className="hint">Try it:</p>
      <div className="secret">
        <code aria-label="A curl command using the key">{curl}</code>
        <button type="button" onClick={() => copy(curl, 'Command copied to the clipboard.', REFUSED)}>
          Copy command
        </button>
      </div>
      {copied && <Status>{copied}</Status>}
      <button type="button" className="primary" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
