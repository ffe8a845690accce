// zod extended with `.openapi()` once, before any schema is built: every request and response schema
// imports `z` from here, so the OpenAPI document is generated from the very schemas the routes use.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
