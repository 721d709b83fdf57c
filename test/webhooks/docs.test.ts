import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

describe('docs/webhooks.md', () => {
  it('shows examples/webhook-receiver.js exactly as the tests run it', () => {
    const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/webhooks.md'), 'utf8');
    const example = fs.readFileSync(path.resolve(__dirname, '../../examples/webhook-receiver.js'), 'utf8');
    expect(docs).to.contain('```js\n' + example + '```\n');
  });
});
