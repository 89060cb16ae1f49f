import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { documentedHeaders, endpointOf, isSafeMethod } from '../../core/model/endpoints.ts';

describe('endpoints and their documented headers', () => {
  test('spellings of /merchant/status are the status endpoint', () => {
    for (const p of [
      '/merchant/status',
      '/merchant/status/',
      '/MERCHANT/Status',
      '/merchant/%73tatus',
      '//merchant//status',
    ]) {
      assert.equal(endpointOf(p), 'status', p);
    }
    assert.equal(endpointOf('/merchant/status?x=1'), 'status');
    assert.equal(endpointOf('/merchant/statuses'), 'other');
    assert.equal(endpointOf('/merchant/%zz'), 'other', 'an undecodable path');
  });
  test('the payments list, any merchant id spelling', () => {
    assert.equal(endpointOf('/payments/n1/merchant/msb_1/payments'), 'list');
    assert.equal(endpointOf('/payments/n1/merchant/%EF%BD%8Dsb_1/payments/'), 'list');
    assert.equal(endpointOf('/payments/n2/merchant/msb_1/payments'), 'other');
    assert.equal(endpointOf('/payments/n1/merchant/msb_1/refunds'), 'other');
  });
  test('§4.1 documents Content-Type on the status endpoint only', () => {
    assert.deepEqual(documentedHeaders('/merchant/status'), { 'content-type': 'application/json' });
    assert.deepEqual(documentedHeaders('/payments/n1/merchant/m/payments'), {});
    assert.deepEqual(documentedHeaders('/elsewhere'), {});
  });
  test('safe methods: GET, HEAD, OPTIONS, exactly as written', () => {
    assert.deepEqual(['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'get', 'TRACE'].map(isSafeMethod), [
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
