/**
 * The gateway's key pair as these tests see it: requests are signed with it
 * (`KEYS.signer()`), a started service reads its public half from a file
 * (`publicKeysFile(KEYS)`, @skills/common/testing).
 */
import { testPrincipalKeys } from '@skills/common/testing';

export const KEYS = testPrincipalKeys();
