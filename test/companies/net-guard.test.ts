import { expect } from 'chai';
import { checkPublicHttpsUrl, isPublicAddress } from '../../core/net-guard';

describe('core/net-guard', () => {
  it('classifies addresses', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(a), a).to.equal(true);
    for (const a of [
      '127.0.0.1',
      '10.1.1.1',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.1.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:c0a8:101::1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(a), a).to.equal(false);
    }
  });

  it('refuses every IPv6 spelling of a private, loopback or link-local IPv4, and IPv4 in decimal, hex or octal', async () => {
    const carried = [
      '::127.0.0.1',
      '::7f00:1',
      '0:0:0:0:0:0:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '0:0:0:0:0:ffff:c0a8:0101',
      '::ffff:0:169.254.169.254',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:FF9B:0:0:0:0:c0a8:1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:0101:0:0:0:0:1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '64:ff9b:1::a00:1',
    ];
    for (const a of carried) expect(isPublicAddress(a), a).to.equal(false);
    for (const a of ['::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) expect(isPublicAddress(a), a).to.equal(true);
    const urls = [
      'https://[::127.0.0.1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[0:0:0:0:0:ffff:7f00:1]/',
      'https://[64:ff9b::10.0.0.1]/',
      'https://[2002:c0a8:101::1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://0xa9.0xfe.0xa9.0xfe/',
      'https://3232235777/',
    ];
    for (const url of urls)
      expect(await checkPublicHttpsUrl(url, { allowPrivate: false, lookup: async () => [] }), url).to.deep.include({
        ok: false,
        reason: 'not_public',
      });
  });

  it('rejects names that resolve to a private address, and names that do not resolve', async () => {
    const lookup = async (host: string) =>
      host === 'internal.example' ? ['93.184.215.14', '10.0.0.5'] : host === 'public.example' ? ['93.184.215.14'] : [];
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
