/** The body that issues a scanner credential (scanners.routes.ts). */
import Joi from 'joi';
import { SCANNER_NAME_PATTERN } from '../../domain/scanner/scanner';

export const issueScannerSchema = Joi.object<{ name: string }>({
  name: Joi.string().pattern(SCANNER_NAME_PATTERN).required(),
});
