import { z } from 'zod';

/** Contract section 2: times are RFC 3339 UTC strings. */
export const TimestampSchema = z.iso.datetime({ offset: false });
