import { renderValues } from '../__testUtils__/renderValues';
import * as x509 from '@peculiar/x509';
import { screen, within } from '@testing-library/react';
import { webcrypto } from 'node:crypto';
import { expiryStatus, pemBlocks, summarizeCertificate } from './pem';
import { ValuePreview } from './ValuePreview';

const DAY = 86_400_000;
const NOW = new Date('2025-06-01T00:00:00.000Z');

const BROKEN_CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'AAAAbm90IGEgY2VydGlmaWNhdGU=',
  '-----END CERTIFICATE-----',
].join('\n');

// Never decoded by the viewer, so its body need not be a real key.
const PRIVATE_KEY = [
  '-----BEGIN PRIVATE KEY-----',
  'UHJpdmF0ZSBrZXkgbWF0ZXJpYWwgdGhhdCBtdXN0IG5vdCBiZSBkZWNvZGVk',
  '-----END PRIVATE KEY-----',
].join('\n');

async function selfSigned(
  commonName: string,
  notBefore: Date,
  notAfter: Date,
): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName}, O=Krypton Test`,
    notBefore,
    notAfter,
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: commonName },
        { type: 'dns', value: `www.${commonName}` },
        { type: 'ip', value: '10.0.0.1' },
        { type: 'email', value: 'ops@example.com' },
        { type: 'url', value: `https://${commonName}/path` },
      ]),
    ],
  });
  return cert.toString('pem');
}

let valid: string;
let expired: string;
let expiring: string;
let noSans: string;

beforeAll(async () => {
  // jsdom has no WebCrypto; Node's implementation signs the test certificates.
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  valid = await selfSigned(
    'valid.example',
    new Date('2025-01-01T00:00:00.000Z'),
    new Date('2027-01-01T00:00:00.000Z'),
  );
  expired = await selfSigned(
    'expired.example',
    new Date('2024-01-01T00:00:00.000Z'),
    new Date('2025-05-31T00:00:00.000Z'),
  );
  expiring = await selfSigned(
    'soon.example',
    new Date('2025-01-01T00:00:00.000Z'),
    new Date(NOW.getTime() + 10 * DAY),
  );
  const keys = (await webcrypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  noSans = (
    await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '02',
      name: 'CN=plain.example',
      notBefore: new Date('2025-01-01T00:00:00.000Z'),
      notAfter: new Date('2026-01-01T00:00:00.000Z'),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      keys,
    })
  ).toString('pem');
});

function blockItems(): HTMLElement[] {
  return within(screen.getByRole('list', { name: 'PEM blocks' }))
    .getAllByRole('listitem')
    .filter(item => /^Block \d+:/.test(item.firstChild?.textContent ?? ''));
}

describe('ValuePreview: PEM', () => {
  it('shows the PEM text and summarizes each certificate', async () => {
    const value = `${valid}\n`;
    await renderValues(<ValuePreview value={value} now={NOW} />);
    expect(screen.getByText('Detected: PEM')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'PEM text' }).textContent).toBe(
      value,
    );
    const [block] = blockItems();
    const inBlock = within(block);
    expect(inBlock.getByText('Block 1: CERTIFICATE')).toBeInTheDocument();
    // Self-signed: subject and issuer are the same name.
    expect(
      inBlock.getAllByText('CN=valid.example, O=Krypton Test'),
    ).toHaveLength(2);
    for (const san of [
      'DNS: valid.example',
      'DNS: www.valid.example',
      'IP: 10.0.0.1',
      'Email: ops@example.com',
      'URI: https://valid.example/path',
    ]) {
      expect(inBlock.getByText(san)).toBeInTheDocument();
    }
    expect(inBlock.getByText('2025-01-01T00:00:00.000Z')).toBeInTheDocument();
    expect(inBlock.getByText('2027-01-01T00:00:00.000Z')).toBeInTheDocument();
    expect(inBlock.getByText('Valid')).toBeInTheDocument();
    expect(inBlock.queryByText('Expired')).toBeNull();
    expect(inBlock.queryByText('Expires soon')).toBeNull();
  });

  it('flags expired and soon-expiring certificates', async () => {
    await renderValues(
      <ValuePreview value={`${expired}\n${expiring}\n${noSans}`} now={NOW} />,
    );
    const [first, second, third] = blockItems();
    expect(within(first).getByText('Expired')).toBeInTheDocument();
    expect(
      within(first).getByText('2025-05-31T00:00:00.000Z'),
    ).toBeInTheDocument();
    expect(within(second).getByText('Expires soon')).toBeInTheDocument();
    expect(within(second).getByText('DNS: soon.example')).toBeInTheDocument();
    expect(within(third).getByText('None')).toBeInTheDocument();
  });

  it('keeps a broken block from hiding the others, and names other blocks by type only', async () => {
    const value = [BROKEN_CERTIFICATE, valid, PRIVATE_KEY].join('\n');
    await renderValues(<ValuePreview value={value} now={NOW} />);
    const [broken, good, key] = blockItems();
    expect(
      within(broken).getByText('Block 1: CERTIFICATE'),
    ).toBeInTheDocument();
    expect(
      within(broken).getByText('This block could not be parsed.'),
    ).toBeInTheDocument();
    expect(
      within(good).getAllByText('CN=valid.example, O=Krypton Test'),
    ).toHaveLength(2);
    expect(within(good).getByText('DNS: valid.example')).toBeInTheDocument();
    expect(within(key).getByText('Block 3: PRIVATE KEY')).toBeInTheDocument();
    expect(key.textContent).toBe('Block 3: PRIVATE KEY');
    expect(screen.getAllByText('This block could not be parsed.')).toHaveLength(
      1,
    );
  });

  it('says so when the chosen PEM mode finds no block', async () => {
    await renderValues(
      <ValuePreview value="not pem" initialMode="pem" now={NOW} />,
    );
    expect(screen.getByText('No PEM blocks were found.')).toBeInTheDocument();
  });
});

describe('pem helpers', () => {
  it('splits blocks and marks unterminated and mismatched ones', () => {
    const text = [
      'preamble',
      '-----BEGIN CERTIFICATE-----\r',
      'AAAA',
      '-----END PRIVATE KEY-----',
      '-----BEGIN EC PRIVATE KEY-----',
      'BBBB',
      '-----END EC PRIVATE KEY-----',
      '-----BEGIN CERTIFICATE-----',
      'CCCC',
    ].join('\n');
    expect(pemBlocks(text)).toEqual([
      {
        type: 'CERTIFICATE',
        text: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----',
        complete: false,
      },
      {
        type: 'EC PRIVATE KEY',
        text: '-----BEGIN EC PRIVATE KEY-----\nBBBB\n-----END EC PRIVATE KEY-----',
        complete: true,
      },
      {
        type: 'CERTIFICATE',
        text: '-----BEGIN CERTIFICATE-----\nCCCC',
        complete: false,
      },
    ]);
  });

  it('reads a certificate and rejects a broken one', () => {
    expect(summarizeCertificate(valid)?.subject).toBe(
      'CN=valid.example, O=Krypton Test',
    );
    expect(summarizeCertificate(BROKEN_CERTIFICATE)).toBeUndefined();
  });

  it('computes expiry against the given time', () => {
    const notBefore = new Date(NOW.getTime() - 100 * DAY);
    const at = (days: number) => new Date(NOW.getTime() + days * DAY);
    expect(expiryStatus(notBefore, at(-1), NOW)).toBe('expired');
    expect(expiryStatus(notBefore, NOW, NOW)).toBe('expiring');
    expect(expiryStatus(notBefore, at(30), NOW)).toBe('expiring');
    expect(expiryStatus(notBefore, at(31), NOW)).toBe('valid');
    expect(expiryStatus(at(1), at(400), NOW)).toBe('not-yet-valid');
  });
});
