import { expect } from 'chai';
import { checkPublicHttpsUrl, isPublicAddress } from '../../core/net-guard';

describe('core/net-guard', () => {
  it('classifies addresses', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).to.equal(true);
    for (const a of ['127.0.0.1', '10.1.1.1', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.100.1.1', '0.0.0.0', '::1', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::10.0.0.1', '2002:c0a8:101::1', 'not-an-ip']) {
      expect(isPublicAddress(a), a).to.equal(false);
    }
  });

  it('rejects names that resolve to a private address, and names that do not resolve', async () => {
    const lookup = async (host: string) => (host === 'internal.example' ? ['93.184.215.14', '10.0.0.5'] : host === 'public.example' ? ['93.184.215.14'] : []);
    const internal = await checkPublicHttpsUrl('https://internal.example/hook', { allowPrivate: false, lookup });
    expect(internal).to.deep.include({ ok: false, reason: 'not_public' });
    const missing = await checkPublicHttpsUrl('https://nowhere.example/hook', { allowPrivate: false, lookup });
    expect(missing).to.deep.include({ ok: false, reason: 'unresolvable' });
    const good = await checkPublicHttpsUrl('https://public.example/hook', { allowPrivate: false, lookup });
    expect(good.ok).to.equal(true);
    const allowed = await checkPublicHttpsUrl('https://internal.example/hook', { allowPrivate: true, lookup });
    expect(allowed.ok).to.equal(true);
  });
});
