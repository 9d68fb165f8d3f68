/** An OpenAPI document as far as tests walk it: its paths and their operations. */
export interface OpenApiPaths<Operation> {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const SCHEMAS = '#/components/schemas/';

/** The schema itself, or the named one (`components.schemas`) it refers to with `$ref`. */
export function resolveSchema<Schema>(
  doc: OpenApiPaths<unknown>,
  schema: Schema | { $ref: string } | undefined,
): Schema | undefined {
  if (schema === null || typeof schema !== 'object' || !('$ref' in schema)) return schema;
  const ref = schema.$ref;
  if (!ref.startsWith(SCHEMAS)) return undefined;
  return resolveSchema(doc, doc.components?.schemas?.[ref.slice(SCHEMAS.length)] as Schema);
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, with its method and path template. */
export function operationsOf<Operation>(
  doc: OpenApiPaths<Operation>,
): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}
