import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillTemplate, parseTemplate } from './argTemplate.js';
import { parseParamRule } from '../tools/paramRules/paramRules.js';
import { checkPluginManifest, pluginDependencies, pluginParametersSchema, pluginToolId, type PluginManifest } from './pluginManifest.js';
import { checkPluginTestFile } from './pluginTestCase.js';

type Json = Record<string, unknown>;

/** A manifest that sets every field the meta-model knows, each executor once. */
function full(): Json {
  const tool = (name: string, executor: Json, extra: Json = {}): Json => ({
    name,
    title: `Tool ${name}`,
    group: 'Terrain',
    icon: 'layers',
    description: `Does ${name}.`,
    parameters: {
      type: 'object',
      properties: {
        dem: { type: 'string', description: 'A raster layer' },
        band: { type: 'integer', minimum: 1 },
        zones: { type: 'string' },
        field: { type: 'string' },
        name: { type: 'string' },
      },
      required: ['dem'],
      additionalProperties: false,
    },
    rules: {
      dem: ['layer_exists', 'raster', 'crs_projected'],
      band: ['band_exists:dem'],
      zones: ['layer_exists', 'vector', 'geometry:polygon|line'],
      field: ['field_exists:zones', 'field_numeric'],
    },
    safety: 'write',
    risk_level: 'high',
    network: false,
    caller: 'user_only',
    user_visible: true,
    limits: { timeout_s: 120, concurrency: 2, once_per_session: true },
    deprecated: 'use terrain_tools.slope2',
    executor,
    ...extra,
  });
  return {
    namespace: 'terrain_tools',
    version: '1.2.0-beta.1+build.5',
    name: 'Terrain tools',
    description: 'Slope and friends.',
    author: 'A. Person <a@example.org>',
    requires: ['project', 'gdal', 'map', 'net'],
    depends_on: ['hello@^1.0.0', { namespace: 'other', version: '>=1.0.0 <2.0.0 || 3.x' }],
    load: 'eager',
    tools: [
      tool('slope', {
        type: 'command',
        argv: ['gdaldem', 'slope', '{dem}', 'slope.tif', '-b', '{band}', '{{literal}}'],
        outputs: ['slope.tif'],
      }),
      tool(
        'lookup',
        {
          type: 'http',
          method: 'POST',
          url: 'https://api.example.org:8443/v1/{name}/x?field={field}',
          body: { q: '{name}', n: ['{band}'] },
        },
        { network: true, deprecated: true },
      ),
      tool(
        'remote',
        { type: 'grpc', proto: 'proto/terrain.proto', service: 'terrain.v1.Slope', method: 'Run', address: '127.0.0.1:50051' },
        { network: true },
      ),
      tool('local_mcp', { type: 'mcp', stdio: { command: './bin/server', args: ['--stdio'] } }),
      tool('remote_mcp', { type: 'mcp', url: 'http://localhost:3000/mcp', tool: 'getWeather' }, { network: true }),
      tool('scripted', { type: 'module', entry: 'dist/index.mjs' }, { safety: 'destructive', risk_level: 'critical' }),
    ],
  };
}

/** The smallest manifest: defaults fill the rest. */
function minimal(): Json {
  return {
    namespace: 'hello',
    version: '1.0.0',
    name: 'Hello',
    description: 'Greets.',
    author: 'Someone',
    tools: [
      {
        name: 'greet',
        title: 'Greet',
        group: 'Examples',
        icon: 'cog',
        description: 'Greets.',
        safety: 'read',
        executor: { type: 'command', argv: ['/bin/echo', 'hi'] },
      },
    ],
  };
}

function tool0(m: Json): Json {
  return (m.tools as Json[])[0]!;
}

describe('checkPluginManifest accepts', () => {
  it('every field, each executor once', () => {
    const result = checkPluginManifest(full());
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems, null, 1));
    const m = result.manifest;
    assert.equal(m.tools.length, 6);
    assert.deepEqual(
      m.tools.map((t) => t.executor.type),
      ['command', 'http', 'grpc', 'mcp', 'mcp', 'module'],
    );
    assert.deepEqual(m.tools[0]!.limits, { timeout_s: 120, concurrency: 2, once_per_session: true });
    assert.equal(m.tools[1]!.deprecated, true);
    assert.deepEqual(pluginDependencies(m), [
      { namespace: 'hello', range: '^1.0.0' },
      { namespace: 'other', range: '>=1.0.0 <2.0.0 || 3.x' },
    ]);
  });

  it('a minimal manifest, with the defaults filled in', () => {
    const result = checkPluginManifest(minimal());
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    const m: PluginManifest = result.manifest;
    assert.deepEqual([m.requires, m.depends_on, m.load], [[], [], 'lazy']);
    const t = m.tools[0]!;
    assert.deepEqual(
      [t.risk_level, t.network, t.caller, t.user_visible, t.deprecated, t.limits, t.rules],
      ['low', false, 'user_and_model', false, false, {}, {}],
    );
    assert.deepEqual(t.parameters, { type: 'object', properties: {} });
  });

  it("an mcp tool binds one server tool: `tool` is optional, the server's name as written", () => {
    const result = checkPluginManifest(full());
    assert.ok(result.ok);
    const [local, remote] = result.manifest.tools.slice(3, 5).map((t) => t.executor);
    assert.equal(local?.type === 'mcp' ? local.tool : 'not mcp', undefined);
    assert.equal(remote?.type === 'mcp' ? remote.tool : 'not mcp', 'getWeather');
    for (const name of ['get-weather', 'weather.v2/lookup', 'Get Weather', 'x'.repeat(200)]) {
      const m = full();
      (m.tools as Json[])[4]!.executor = { type: 'mcp', url: 'http://localhost:3000/mcp', tool: name };
      const r = checkPluginManifest(m);
      assert.ok(r.ok, `${name}: ${JSON.stringify(!r.ok && r.problems)}`);
    }
  });

  it('a string dependency without a range means any version', () => {
    const m = { ...minimal(), depends_on: ['other'] };
    const result = checkPluginManifest(m);
    assert.ok(result.ok);
    assert.deepEqual(pluginDependencies(result.manifest), [{ namespace: 'other', range: '*' }]);
  });
});

/** Set by a case to check a whole other value instead of the broken manifest. */
const REPLACE = '(replace)';

/** [what, how to break the full manifest, the problem expected (its path, then its words)]. */
const REJECTIONS: [string, (m: Json) => unknown, string, RegExp][] = [
  ['not a mapping', (m) => (m[REPLACE] = 'namespace: x'), '(top level)', /must be a mapping/],
  ['a list', (m) => (m[REPLACE] = []), '(top level)', /must be a mapping/],
  ['missing namespace', (m) => delete m.namespace, 'namespace', /is required/],
  ['namespace not snake_case', (m) => (m.namespace = 'Terrain-Tools'), 'namespace', /'Terrain-Tools' must be lowercase snake_case/],
  ['namespace double underscore', (m) => (m.namespace = 'a__b'), 'namespace', /snake_case/],
  ['built-in namespace', (m) => (m.namespace = 'processing'), 'namespace', /'processing' is a built-in namespace/],
  ['namespace too long', (m) => (m.namespace = 'a'.repeat(33)), 'namespace', /32/],
  ['version not semver', (m) => (m.version = '1.0'), 'version', /'1.0' is not a semantic version/],
  ['version with a leading zero', (m) => (m.version = '01.0.0'), 'version', /not a semantic version/],
  ['missing version', (m) => delete m.version, 'version', /is required/],
  ['empty name', (m) => (m.name = '  '), 'name', /is empty/],
  ['description too long', (m) => (m.description = 'x'.repeat(1025)), 'description', /1024/],
  ['missing author', (m) => delete m.author, 'author', /is required/],
  ['unknown requirement', (m) => (m.requires = ['disk']), 'requires[0]', /expected one of/],
  ['requirement twice', (m) => (m.requires = ['project', 'net', 'project']), 'requires', /'project' is listed twice/],
  ['dependency range', (m) => (m.depends_on = ['hello@banana']), 'depends_on[0]', /'banana' is not a version range/],
  ['dependency namespace', (m) => (m.depends_on = ['Hello@1.0.0']), 'depends_on[0]', /'Hello' is not a plugin namespace/],
  ['dependency on itself', (m) => (m.depends_on = ['terrain_tools@1.x']), 'depends_on[0]', /cannot depend on itself/],
  ['dependency twice', (m) => (m.depends_on = ['hello@1.x', { namespace: 'hello' }]), 'depends_on[1]', /'hello' is listed twice/],
  ['dependency object with a stray key', (m) => (m.depends_on = [{ namespace: 'x', range: '1.x' }]), 'depends_on[0].range', /unknown key/],
  ['dependency neither string nor object', (m) => (m.depends_on = [3]), 'depends_on[0]', /namespace@range/],
  ['load mode', (m) => (m.load = 'sometimes'), 'load', /expected one of "lazy"\|"eager"/],
  ['no tools', (m) => (m.tools = []), 'tools', /at least one tool/],
  ['unknown top-level key', (m) => (m.permissions = 'all'), 'permissions', /unknown key/],
  // tools
  ['tool name not snake_case', (m) => (tool0(m).name = 'Slope'), 'tools[0].name', /'Slope' must be lowercase snake_case/],
  ['tool name too long', (m) => (tool0(m).name = 'a'.repeat(32)), 'tools[0].name', /31/],
  ['tool name twice', (m) => ((m.tools as Json[])[1]!.name = 'slope'), 'tools[1].name', /'slope' is the name of tools\[0\] too/],
  ['missing title', (m) => delete tool0(m).title, 'tools[0].title', /is required/],
  ['empty group', (m) => (tool0(m).group = ''), 'tools[0].group', /is empty/],
  ['icon not a name', (m) => (tool0(m).icon = 'My Icon'), 'tools[0].icon', /icon 'My Icon' must be an icon name/],
  ['empty description', (m) => (tool0(m).description = ''), 'tools[0].description', /is empty/],
  ['description too long', (m) => (tool0(m).description = 'x'.repeat(2001)), 'tools[0].description', /2000/],
  ['unknown tool key', (m) => (tool0(m).saftey = 'read'), 'tools[0].saftey', /unknown key/],
  // parameters
  ['parameters not an object schema', (m) => (tool0(m).parameters = { type: 'array' }), 'tools[0].parameters.type', /must be 'object'/],
  [
    'a parameter not a schema',
    (m) => (tool0(m).parameters = { type: 'object', properties: { a: 'string' } }),
    'tools[0].parameters.properties.a',
    /JSON Schema object/,
  ],
  [
    'a parameter name with a hyphen',
    (m) => (tool0(m).parameters = { type: 'object', properties: { 'in-layer': { type: 'string' } } }),
    'tools[0].parameters.properties.in-layer',
    /plain identifier/,
  ],
  [
    'required names a missing parameter',
    (m) => (tool0(m).parameters = { type: 'object', properties: {}, required: ['dem'] }),
    'tools[0].parameters.required',
    /'dem' is required but not in properties/,
  ],
  [
    'a schema zod cannot use',
    (m) => (tool0(m).parameters = { type: 'object', properties: { a: { type: 'strin' } } }),
    'tools[0].parameters',
    /not a JSON Schema Mapwright can check: Unsupported type: strin/,
  ],
  // rules
  ['unknown rule', (m) => (tool0(m).rules = { dem: ['metres'] }), 'tools[0].rules.dem', /unknown rule 'metres'/],
  ['rule on no parameter', (m) => (tool0(m).rules = { distance: ['layer_exists'] }), 'tools[0].rules.distance', /no parameter 'distance'/],
  [
    'rule naming no parameter',
    (m) => (tool0(m).rules = { field: ['field_exists:layer'] }),
    'tools[0].rules.field',
    /'field_exists:layer' names no parameter 'layer'/,
  ],
  [
    'rule naming itself',
    (m) => (tool0(m).rules = { dem: ['layer_exists', 'band_exists:dem'] }),
    'tools[0].rules.dem',
    /names the parameter itself/,
  ],
  [
    'rule naming a non-layer',
    (m) => (tool0(m).rules = { field: ['field_exists:name'] }),
    'tools[0].rules.field',
    /needs 'layer_exists' on parameter 'name'/,
  ],
  ['layer rule without layer_exists', (m) => (tool0(m).rules = { dem: ['raster'] }), 'tools[0].rules.dem', /'raster' needs 'layer_exists'/],
  [
    'field_numeric without field_exists',
    (m) => (tool0(m).rules = { dem: ['layer_exists'], field: ['field_numeric'] }),
    'tools[0].rules.field',
    /'field_numeric' needs 'field_exists/,
  ],
  [
    'raster and vector at once',
    (m) => (tool0(m).rules = { dem: ['layer_exists', 'raster', 'vector'] }),
    'tools[0].rules.dem',
    /raster and vector at once/,
  ],
  [
    'geometry on a raster',
    (m) => (tool0(m).rules = { dem: ['layer_exists', 'raster', 'geometry:point'] }),
    'tools[0].rules.dem',
    /vector layers only/,
  ],
  [
    'geometry kind unknown',
    (m) => (tool0(m).rules = { dem: ['layer_exists', 'geometry:curve'] }),
    'tools[0].rules.dem',
    /unknown rule 'geometry:curve'/,
  ],
  ['rules not lists', (m) => (tool0(m).rules = { dem: 'layer_exists' }), 'tools[0].rules.dem', /expected array/],
  // permission face
  ['missing safety', (m) => delete tool0(m).safety, 'tools[0].safety', /is required/],
  ['unknown safety', (m) => (tool0(m).safety = 'dangerous'), 'tools[0].safety', /expected one of "read"\|"write"\|"destructive"/],
  ['unknown risk level', (m) => (tool0(m).risk_level = 'extreme'), 'tools[0].risk_level', /"low"\|"medium"\|"high"\|"critical"/],
  ['network not a boolean', (m) => (tool0(m).network = 'yes'), 'tools[0].network', /expected boolean/],
  ['unknown caller', (m) => (tool0(m).caller = 'model_only'), 'tools[0].caller', /"user_and_model"\|"user_only"/],
  ['user_visible not a boolean', (m) => (tool0(m).user_visible = 1), 'tools[0].user_visible', /expected boolean/],
  ['time-out of zero', (m) => (tool0(m).limits = { timeout_s: 0 }), 'tools[0].limits.timeout_s', /expected number to be >0/],
  ['fractional concurrency', (m) => (tool0(m).limits = { concurrency: 1.5 }), 'tools[0].limits.concurrency', /expected int/],
  ['unknown limit', (m) => (tool0(m).limits = { memory_mb: 10 }), 'tools[0].limits.memory_mb', /unknown key/],
  ['empty deprecation note', (m) => (tool0(m).deprecated = ''), 'tools[0].deprecated', /.+/],
  // executors
  ['missing executor', (m) => delete tool0(m).executor, 'tools[0].executor', /is required/],
  [
    'unknown executor',
    (m) => (tool0(m).executor = { type: 'ftp' }),
    'tools[0].executor.type',
    /'command' \| 'http' \| 'grpc' \| 'mcp' \| 'module'/,
  ],
  [
    'command as a shell string',
    (m) => (tool0(m).executor = { type: 'command', argv: 'gdaldem slope {dem}' }),
    'tools[0].executor.argv',
    /never a shell string/,
  ],
  [
    'command without argv',
    (m) => (tool0(m).executor = { type: 'command', argv: [] }),
    'tools[0].executor.argv',
    /expected array to have >=1 items/,
  ],
  [
    'command program as a placeholder',
    (m) => (tool0(m).executor = { type: 'command', argv: ['{dem}'] }),
    'tools[0].executor.argv[0]',
    /the model never chooses what runs/,
  ],
  [
    'command program leaving the folder',
    (m) => (tool0(m).executor = { type: 'command', argv: ['../bin/run'] }),
    'tools[0].executor.argv[0]',
    /leaves the plugin folder/,
  ],
  [
    'command program with backslashes',
    (m) => (tool0(m).executor = { type: 'command', argv: ['bin\\run.exe'] }),
    'tools[0].executor.argv[0]',
    /backslashes/,
  ],
  [
    'broken placeholder',
    (m) => (tool0(m).executor = { type: 'command', argv: ['gdaldem', '{dem'] }),
    'tools[0].executor.argv[1]',
    /bad placeholder/,
  ],
  ['stray brace', (m) => (tool0(m).executor = { type: 'command', argv: ['gdaldem', 'a}'] }), 'tools[0].executor.argv[1]', /stray '}'/],
  [
    'placeholder naming no parameter',
    (m) => (tool0(m).executor = { type: 'command', argv: ['gdaldem', '{input}'] }),
    'tools[0].executor.argv[1]',
    /\{input\} names no parameter/,
  ],
  [
    'output with a glob',
    (m) => (tool0(m).executor = { type: 'command', argv: ['x'], outputs: ['*.tif'] }),
    'tools[0].executor.outputs[0]',
    /plain file name/,
  ],
  [
    'output in a folder',
    (m) => (tool0(m).executor = { type: 'command', argv: ['x'], outputs: ['out/a.tif'] }),
    'tools[0].executor.outputs[0]',
    /no folder/,
  ],
  [
    'output twice',
    (m) => (tool0(m).executor = { type: 'command', argv: ['x'], outputs: ['a.tif', 'a.tif'] }),
    'tools[0].executor.outputs',
    /listed twice/,
  ],
  ['outputs from a read tool', (m) => (tool0(m).safety = 'read'), 'tools[0].safety', /safety must be write/],
  ['http to ftp', (m) => (http(m).url = 'ftp://example.org/x'), 'tools[1].executor.url', /not an http:\/\/ or https:\/\/ URL/],
  [
    'http placeholder in the host',
    (m) => (http(m).url = 'https://{name}.example.org/'),
    'tools[1].executor.url',
    /path or query only, not in the host/,
  ],
  ['http credentials', (m) => (http(m).url = 'https://me:secret@example.org/'), 'tools[1].executor.url', /no user name or password/],
  ['http fragment', (m) => (http(m).url = 'https://example.org/a#{name}'), 'tools[1].executor.url', /fragment/],
  ['http bad URL', (m) => (http(m).url = 'https://exa mple.org/'), 'tools[1].executor.url', /not a valid URL/],
  [
    'http placeholder naming no parameter',
    (m) => (http(m).url = 'https://example.org/?q={query}'),
    'tools[1].executor.url',
    /\{query\} names no parameter/,
  ],
  [
    'http body placeholder naming no parameter',
    (m) => (http(m).body = { q: '{query}' }),
    'tools[1].executor.body',
    /\{query\} names no parameter/,
  ],
  ['http body with GET', (m) => (http(m).method = 'GET'), 'tools[1].executor.body', /POST only/],
  ['http method', (m) => (http(m).method = 'PUT'), 'tools[1].executor.method', /"GET"\|"POST"/],
  [
    'http without network',
    (m) => ((m.tools as Json[])[1]!.network = false),
    'tools[1].network',
    /http executor reaches the network: set network: true/,
  ],
  ['network without requires net', (m) => (m.requires = ['project']), 'requires', /tools\[1\] \(lookup\) uses the network: add 'net'/],
  ['grpc proto absolute', (m) => (grpc(m).proto = '/etc/terrain.proto'), 'tools[2].executor.proto', /is absolute/],
  [
    'grpc proto leaving the folder',
    (m) => (grpc(m).proto = 'a/../../terrain.proto'),
    'tools[2].executor.proto',
    /leaves the plugin folder/,
  ],
  ['grpc proto not a .proto', (m) => (grpc(m).proto = 'terrain.txt'), 'tools[2].executor.proto', /must end with .proto/],
  ['grpc address without port', (m) => (grpc(m).address = 'localhost'), 'tools[2].executor.address', /.+/],
  ['grpc port out of range', (m) => (grpc(m).address = 'localhost:99999'), 'tools[2].executor.address', /at most 65535/],
  ['grpc service', (m) => (grpc(m).service = 'terrain/Slope'), 'tools[2].executor.service', /.+/],
  ['mcp with neither', (m) => ((m.tools as Json[])[3]!.executor = { type: 'mcp' }), 'tools[3].executor', /exactly one of stdio or url/],
  [
    'mcp with both',
    (m) => ((m.tools as Json[])[3]!.executor = { type: 'mcp', stdio: { command: 'srv' }, url: 'http://localhost/mcp' }),
    'tools[3].executor',
    /exactly one of stdio or url/,
  ],
  [
    'mcp command leaving the folder',
    (m) => ((m.tools as Json[])[3]!.executor = { type: 'mcp', stdio: { command: '../srv' } }),
    'tools[3].executor.stdio.command',
    /leaves the plugin folder/,
  ],
  [
    'mcp URL with a placeholder',
    (m) => ((m.tools as Json[])[4]!.executor = { type: 'mcp', url: 'http://localhost/{name}' }),
    'tools[4].executor.url',
    /no placeholders/,
  ],
  ['mcp tool name empty', (m) => (((m.tools as Json[])[4]!.executor as Json).tool = ''), 'tools[4].executor.tool', /is empty/],
  ['mcp tool name too long', (m) => (((m.tools as Json[])[4]!.executor as Json).tool = 'x'.repeat(201)), 'tools[4].executor.tool', /.+/],
  ['mcp tool name not a string', (m) => (((m.tools as Json[])[4]!.executor as Json).tool = ['a', 'b']), 'tools[4].executor.tool', /.+/],
  [
    'mcp tool name with a control character',
    (m) => (((m.tools as Json[])[4]!.executor as Json).tool = 'get\nweather'),
    'tools[4].executor.tool',
    /control characters/,
  ],
  [
    'mcp tool on a stdio server with an unknown key beside it',
    (m) => ((m.tools as Json[])[3]!.executor = { type: 'mcp', stdio: { command: 'srv' }, tool: 'a', tools: ['b'] }),
    'tools[3].executor.tools',
    /unknown key/,
  ],
  [
    'module entry leaving the folder',
    (m) => ((m.tools as Json[])[5]!.executor = { type: 'module', entry: '../x.js' }),
    'tools[5].executor.entry',
    /leaves the plugin folder/,
  ],
  [
    'module entry not JavaScript',
    (m) => ((m.tools as Json[])[5]!.executor = { type: 'module', entry: 'main.py' }),
    'tools[5].executor.entry',
    /must end with .js or .mjs or .cjs/,
  ],
  [
    'unknown executor key',
    (m) => (tool0(m).executor = { type: 'command', argv: ['x'], shell: true }),
    'tools[0].executor.shell',
    /unknown key/,
  ],
];

function http(m: Json): Json {
  return (m.tools as Json[])[1]!.executor as Json;
}
function grpc(m: Json): Json {
  return (m.tools as Json[])[2]!.executor as Json;
}

describe('checkPluginManifest rejects, naming the culprit', () => {
  for (const [what, breakIt, path, words] of REJECTIONS) {
    it(what, () => {
      const m = full();
      breakIt(m);
      const result = checkPluginManifest(REPLACE in m ? m[REPLACE] : m);
      assert.equal(result.ok, false, `accepted: ${what}`);
      const problems = result.ok ? [] : result.problems;
      assert.ok(
        problems.some((p) => p.startsWith(`${path}: `) && words.test(p.slice(path.length + 2))),
        `expected "${path}: ${words}" in:\n${problems.join('\n')}`,
      );
    });
  }

  it('reports every problem of a manifest at once, not just the first', () => {
    const m = full();
    m.version = 'one';
    tool0(m).rules = { dem: ['metres'] };
    http(m).url = 'ftp://x';
    const result = checkPluginManifest(m);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.problems.map((p) => p.split(':')[0]),
      ['version', 'tools[0].rules.dem', 'tools[1].executor.url'],
    );
  });
});

describe('plugin tool helpers', () => {
  it('makes the kernel id namespace.name', () => {
    assert.equal(pluginToolId('hello', 'greet'), 'hello.greet');
  });

  it('turns the parameters into a zod schema the dispatcher can check arguments with', () => {
    const result = checkPluginManifest(full());
    assert.ok(result.ok);
    const schema = pluginParametersSchema(result.manifest.tools[0]!);
    assert.ok(schema.safeParse({ dem: 'dem', band: 2 }).success);
    assert.ok(!schema.safeParse({ band: 2 }).success);
    assert.ok(!schema.safeParse({ dem: 'dem', band: 0 }).success);
  });

  it('parses rule strings into data', () => {
    assert.deepEqual(parseParamRule('field_exists:zones'), { kind: 'field_exists', layerParam: 'zones' });
    assert.deepEqual(parseParamRule('geometry:polygon|line'), { kind: 'geometry', geometries: ['polygon', 'line'] });
    assert.deepEqual(parseParamRule('crs_projected'), { kind: 'crs_projected' });
    assert.equal(parseParamRule('geometry:point|point'), null);
    assert.equal(parseParamRule('metres'), null);
  });

  it('fills argv templates item by item, braces escaped', () => {
    const parsed = parseTemplate('{{"name": "{name}"}}');
    assert.ok(parsed.ok);
    assert.equal(fillTemplate(parsed.parts, { name: 'a b; rm -rf /' }), '{"name": "a b; rm -rf /"}');
    const url = parseTemplate('/v1/{name}?n={n}');
    assert.ok(url.ok);
    assert.equal(fillTemplate(url.parts, { name: 'a/b', n: 3 }, encodeURIComponent), '/v1/a%2Fb?n=3');
  });
});

describe('checkPluginTestFile', () => {
  const ok = { tool: 'greet', arguments: { name: 'World' }, expect: { ok: true, shape: { type: 'object' } } };

  it('accepts a case expecting success, one expecting an error code, and a list of cases', () => {
    const one = checkPluginTestFile(ok, 'tests/a.yaml');
    assert.ok(one.ok);
    assert.deepEqual(one.cases[0]!.expect, { ok: true, shape: { type: 'object' } });
    const list = checkPluginTestFile([ok, { tool: 'greet', expect: { error: 'invalid_params' } }], 'tests/b.yaml');
    assert.ok(list.ok);
    assert.deepEqual(list.cases[1], { tool: 'greet', arguments: {}, expect: { error: 'invalid_params' } });
  });

  const BAD: [string, unknown, string][] = [
    ['no tool', { expect: { ok: true } }, 'tests/t.yaml: tool: is required'],
    ['tool as an id', { tool: 'hello.greet', expect: { ok: true } }, "tests/t.yaml: tool: tool 'hello.greet' must be the short name"],
    ['no expectation', { tool: 'greet' }, 'tests/t.yaml: expect: is required'],
    [
      'both ok and error',
      { tool: 'greet', expect: { ok: true, error: 'timeout' } },
      'tests/t.yaml: expect: give either ok: true or error: <code>',
    ],
    ['ok false', { tool: 'greet', expect: { ok: false } }, 'tests/t.yaml: expect.ok: ok can only be true'],
    [
      'shape with an error',
      { tool: 'greet', expect: { error: 'timeout', shape: {} } },
      'tests/t.yaml: expect.shape: a shape goes with ok: true only',
    ],
    [
      'a shape zod cannot use',
      { tool: 'greet', expect: { ok: true, shape: { type: 'strin' } } },
      'tests/t.yaml: expect.shape: not a JSON Schema',
    ],
    [
      'error code in words',
      { tool: 'greet', expect: { error: 'Not Found' } },
      "tests/t.yaml: expect.error: error code 'Not Found' must be snake_case",
    ],
    ['unknown key', { tool: 'greet', args: {}, expect: { ok: true } }, 'tests/t.yaml: args: unknown key'],
    ['a bad case in a list', [ok, { tool: 'greet', expect: {} }], 'tests/t.yaml: [1].expect: give either'],
    ['an empty list', [], 'tests/t.yaml: give 1 to 50 cases'],
  ];
  for (const [what, value, expected] of BAD) {
    it(`rejects ${what}`, () => {
      const result = checkPluginTestFile(value, 'tests/t.yaml');
      assert.ok(!result.ok, `accepted: ${what}`);
      assert.ok(
        result.problems.some((p) => p.startsWith(expected)),
        `expected "${expected}" in:\n${result.problems.join('\n')}`,
      );
    });
  }
});
