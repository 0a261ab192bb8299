/**
 * One catalog item: its verdict, every field, its releases with digests and
 * scans, "add to collection" and "report". A blocked item (its latest
 * release malicious) is explained in place of "add to collection", so
 * someone who holds it in a collection learns why search dropped it.
 */
import { client } from '../api';
import { SkillView } from '../components/skill-view';
import { WhenLoaded } from '../components/states';
import { useLoad } from '../hooks';
import { Link } from '../router';

export function SkillPage({ slug }: { slug: string }) {
  const loaded = useLoad(() => client.getSkill(slug), slug);
  return (
    <section className="card" aria-labelledby="skill-title">
      <p className="crumbs">
        <Link to="/catalog">← Catalog</Link>
      </p>
      <WhenLoaded loaded={loaded} what="the skill" unavailable={<h1 id="skill-title">Skill not available</h1>}>
        {(d) => <SkillView item={d} />}
      </WhenLoaded>
    </section>
  );
}
