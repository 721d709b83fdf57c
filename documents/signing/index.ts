/** Signing: certificates (PFX, test certificates), the XMLDSig signer and an independent verifier. */
export {
  loadPfx,
  generateTestCertificate,
  DEFAULT_MAX_PFX_BYTES,
  type Certificate,
  type CertificateFailure,
  type CertificateResult,
  type TestCertificate,
  type TestCertificateOptions,
} from './certificates';
export { createSigner, signXml, signBuiltXml, type Signer, type SignedXmlResult } from './signer';
export { verifyXmlSignature, type SignatureVerification } from './verify';
