import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { SkillCatalogue } from '../skills/skillCatalogue.js';
import { buildSystemPrompt, projectSummaryText, skillCatalogueText } from './systemPrompt.js';

function layer(name: string, order: number, over: Partial<Layer['info']> = {}): Layer {
  const info = { extent: null, extent4326: null, geometryType: 'Polygon', featureCount: 100, ...over };
  return testLayer({ id: `id-${name}-${order}`, name, source: `/data/${name}.gpkg`, kind: over.kind ?? 'vector', order, info });
}

const repoSkills = () => new SkillCatalogue([{ dir: join(import.meta.dirname, '..', '..', 'skills'), origin: 'built-in' }]);
const empty = { name: 'Untitled project', layers: [], view: null };

describe('system prompt', () => {
  it('the catalogue is one line per skill, descriptions flattened, preloaded ones marked', () => {
    const text = skillCatalogueText(
      [
        { name: 'inspect', description: 'Read\n  the project.' },
        { name: 'layers', description: 'Manage layers.' },
      ],
      new Set(['inspect']),
    );
    assert.equal(text, 'Skills (load with skills_load_skill):\n- inspect (loaded): Read the project.\n- layers: Manage layers.');
  });

  it('holds the catalogue but no skill body at the no-skill stage, within 2,200 characters', () => {
    const catalogue = repoSkills();
    const prompt = buildSystemPrompt({ catalogue: catalogue.list(), preloaded: [], project: empty, language: 'English' });
    assert.ok(prompt.length <= 2200, `no-skill prompt is ${prompt.length} characters`);
    for (const s of catalogue.list()) {
      assert.ok(prompt.includes(`- ${s.name}: `), s.name);
      assert.ok(!prompt.includes(s.body.split('\n')[0]!), `no body of ${s.name}`);
    }
  });

  it('includes the always-loaded skill bodies only', () => {
    const catalogue = repoSkills();
    const inspect = catalogue.find('inspect')!;
    const prompt = buildSystemPrompt({ catalogue: catalogue.list(), preloaded: [inspect], project: empty, language: 'English' });
    assert.ok(prompt.includes(inspect.body));
    assert.ok(prompt.includes('- inspect (loaded): '));
    assert.ok(!prompt.includes(catalogue.find('processing')!.body));
  });

  it('asks for Simplified Chinese for zh-CN, keeping what tools read as it is; English adds nothing', () => {
    const zh = buildSystemPrompt({ catalogue: [], preloaded: [], project: empty, language: 'zh-CN' });
    assert.match(zh, /reply in Simplified Chinese, the interface language/);
    assert.match(zh, /Keep tool arguments, field names and paths as they are\./);
    const en = buildSystemPrompt({ catalogue: [], preloaded: [], project: empty, language: 'en' });
    assert.equal(en, buildSystemPrompt({ catalogue: [], preloaded: [], project: empty, language: 'English' }));
    assert.doesNotMatch(en, /Keep tool arguments/);
  });

  it('states the language policy with the interface language', () => {
    const prompt = buildSystemPrompt({ catalogue: [], preloaded: [], project: empty, language: 'German' });
    assert.match(prompt, /reply in German, the interface language, unless the person writes in another language; then reply in theirs/);
  });

  it('summarises the project: layers top first with kind, CRS and feature count; the view when known', () => {
    const raster = layer('dem', 0, {
      kind: 'raster',
      geometryType: null,
      featureCount: null,
      width: 100,
      height: 50,
      bands: [{ index: 1, dataType: 'Float32', nodata: null, min: 0, max: 1 }],
      crs: { epsg: 32633, name: 'UTM 33N', geographic: false },
    });
    const text = projectSummaryText({
      name: 'Demo',
      layers: [raster, layer('counties', 1)],
      view: { center: [-79.4, 35.5], zoom: 5, bounds: [-85, 33, -75, 37] },
    });
    const lines = text.split('\n');
    assert.equal(lines[0], 'Project "Demo", layers top first:');
    assert.equal(lines[1], '- counties: vector, Polygon, 100 features, EPSG:4326');
    assert.equal(lines[2], '- dem: raster 100×50, 1 band(s), EPSG:32633');
    assert.match(lines[3]!, /^Map view: centre 35\.500°N -79\.400°E, zoom 5\.0/);
  });

  it('adds ids only where names repeat, and caps long layer lists', () => {
    const text = projectSummaryText({ name: 'p', layers: [layer('a', 0), layer('a', 1), layer('b', 2)], view: null });
    assert.match(text, /- a \[id id-a-1\]/);
    assert.match(text, /- b: /);
    const many = projectSummaryText({ name: 'p', layers: Array.from({ length: 40 }, (_, i) => layer(`l${i}`, i)), view: null });
    assert.match(many, /… and 15 more \(inspect_list_layers lists all\)/);
    assert.equal(projectSummaryText(empty).split('\n')[1], '(no layers loaded)');
  });

  it('puts the compaction summary last, after the stable parts', () => {
    const prompt = buildSystemPrompt({
      catalogue: [],
      preloaded: [],
      project: empty,
      language: 'English',
      earlierSummary: 'Summary: loaded rivers.',
    });
    assert.ok(prompt.endsWith('Earlier in this conversation (summarised):\nSummary: loaded rivers.'));
  });
});
