/**
 * The TLS 1.2 cipher suites nginx offers: Mozilla's "intermediate" list (SSL Configuration
 * Generator 6.0): ECDHE key exchange (forward secrecy) with AES-GCM or ChaCha20-Poly1305 (AEAD)
 * only, none with RSA key exchange or CBC. TLS 1.3's suites all have both and are not set here.
 */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
] as const;
