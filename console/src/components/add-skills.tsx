/** Adding to an open collection: a public skill found by name, or (personal collections) a private skill, new or made before. */
import { searchCatalog } from '../catalog-query';
import { useState } from 'react';
import { client, type CollectionPatch } from '../api';
import { useAction, useDebounced, useLoad } from '../hooks';
import { ErrorMessage, Field, submitTo } from './form';

export function AddPublicSkill({ onAdd }: { onAdd(patch: CollectionPatch, name: string): void }) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const found = useLoad(() => (q ? searchCatalog({ q }) : Promise.resolve(undefined)), q);
  const skills = q ? (found.data?.skills.slice(0, 5) ?? []) : [];
  return (
    <section className="add-box" aria-labelledby="add-public-title">
      <h3 id="add-public-title">Add a skill from the catalog</h3>
      <Field
        label="Find a skill"
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={200}
        autoComplete="off"
      />
      {q && found.error && <p className="error">{found.error}</p>}
      {q && found.data && skills.length === 0 && <p className="hint">No skill matches “{q}”.</p>}
      <ul className="picks">
        {skills.map((s) => (
          <li key={s.slug}>
            <span>
              {s.name} <span className="hint">({s.slug})</span>
            </span>
            <button type="button" className="small" onClick={() => onAdd({ skillSlug: s.slug }, s.name)}>
              Add<span className="visually-hidden"> {s.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AddPrivateSkill({ onAdd }: { onAdd(patch: CollectionPatch, name: string): void }) {
  const mine = useLoad(() => client.listMyPrivateSkillsPage({ limit: 50 }), 'private');
  const [picked, setPicked] = useState('');
  const create = useAction(async (form: HTMLFormElement) => {
    const input = new FormData(form);
    const skill = await client.createMyPrivateSkill({
      name: String(input.get('name')).trim(),
      description: String(input.get('description') ?? '').trim(),
    });
    form.reset();
    void mine.reload();
    onAdd({ privateSkillId: skill.id }, skill.name);
  });

  const skills = mine.data?.skills ?? [];
  return (
    <section className="add-box" aria-labelledby="add-private-title">
      <h3 id="add-private-title">Add a private skill</h3>
      <p className="hint">Private skills are yours alone: they never appear in the catalog or in team workspaces.</p>
      {skills.length > 0 && (
        <div className="inline-form">
          <div className="field grow">
            <label htmlFor="pick-private">One of your private skills</label>
            <select id="pick-private" value={picked} onChange={(e) => setPicked(e.target.value)}>
              <option value="">Choose…</option>
              {skills.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            disabled={!picked}
            onClick={() => onAdd({ privateSkillId: picked }, skills.find((s) => s.id === picked)?.name ?? '')}
          >
            Add private skill
          </button>
        </div>
      )}
      <form onSubmit={submitTo(create.run)} className="stacked">
        <Field label="New private skill name" name="name" required maxLength={120} />
        <Field label="What it does (optional)" name="description" maxLength={2000} />
        <ErrorMessage message={create.error} />
        <button type="submit">Create and add</button>
      </form>
    </section>
  );
}
