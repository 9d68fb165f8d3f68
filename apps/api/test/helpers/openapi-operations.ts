/** An OpenAPI document as far as tests walk it: its paths and their operations. */
export interface OpenApiPaths<Operation> {
  paths: Record<string, Record<string, Operation>>;
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
