/** Paths features link to; kept apart from router.tsx so a page never imports the router. */
export const NOT_FOUND_PATH = '/404';
