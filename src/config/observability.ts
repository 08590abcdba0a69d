/**
 * Config of the usage log, the metrics endpoint and the admin views.
 */
import { z } from 'zod';

export const ObservabilityConfigSchema = z.object({}).strict();
