import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodataCountByText } from '../../qa/qaTestData.js';
import { fixture, skipReason } from '../testSupport.js';
import { algorithmSuite } from './algorithmTestKit.js';

const ELEV = fixture('elev.tif');
/** The note's nodata count, e.g. "95 × 90 pixels; 7,333 nodata…". */
const notedNodata = (note: string) => Number(/pixels; ([\d,]+) nodata/.exec(note)?.[1]?.replaceAll(',', '') ?? NaN);

describe('raster calculator: the nodata note counts the file written', { skip: skipReason }, () => {
  const { run, out } = algorithmSuite('mapwright-calc-nodata-');

  test('inputs’ nodata only: the note and the file agree (the DEM’s own nodata)', async () => {
    const file = out('copy.tif');
    const result = await run('raster_calculator', { inputs: [ELEV], expression: 'A1 * 1' }, file);
    assert.equal(notedNodata(result.notes[0]!), nodataCountByText(file));
    assert.equal(nodataCountByText(file), nodataCountByText(ELEV));
    assert.match(result.notes[0]!, /\(an input nodata, or a result that is not a finite number\)$/);
  });

  test('results equal to the nodata value once stored (0 in a Byte output with nodata 0) are counted, and said apart', async () => {
    const file = out('classes.tif');
    const result = await run(
      'raster_calculator',
      { inputs: [ELEV], expression: 'where(A1 > 400, 1, 0)', data_type: 'Byte', nodata: 0 },
      file,
    );
    const inFile = nodataCountByText(file);
    assert.equal(notedNodata(result.notes[0]!), inFile, result.notes[0]);
    assert.ok(inFile > nodataCountByText(ELEV), 'the 0 class became nodata too');
    assert.match(result.notes[0]!, new RegExp(`${nodataCountByText(ELEV).toLocaleString('en-US')} where an input was nodata`));
    assert.match(result.notes[0]!, /equals the nodata value 0 once stored as Byte — choose another nodata value/);
  });

  test('values clamped into the nodata value (above 255 in Byte with nodata 255) are counted too', async () => {
    const file = out('clamped.tif');
    const result = await run('raster_calculator', { inputs: [ELEV], expression: 'A1', data_type: 'Byte', nodata: 255 }, file);
    assert.equal(notedNodata(result.notes[0]!), nodataCountByText(file));
  });

  test('a nodata value the output type cannot hold is refused with the values that work', async () => {
    await assert.rejects(
      run('raster_calculator', { inputs: [ELEV], expression: 'A1 > 400', data_type: 'Byte' }, out('bad.tif')),
      (err: Error) => /nodata -9999 cannot be stored in a Byte output \(integers 0–255\)/.test(err.message),
    );
  });
});
