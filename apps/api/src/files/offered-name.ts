/**
 * The name under which a file is offered for download (the single-file link's
 * Content-Disposition and the entry names of collection zips). A computer opens a downloaded
 * file by its extension, not by its bytes: a JPEG/HTML polyglot uploaded as `polyglot.html`
 * would run as a web page when opened from disk. So the offered name carries an extension of the
 * type sniffed at upload whenever the name's own contradicts it (`polyglot.html` → `polyglot.jpg`).
 */

/**
 * Extensions of the types `sniffContentType` can answer, the usual one first (what a
 * contradicting name gets). A type's own extensions are never a mismatch.
 */
const EXTENSIONS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'pjp'],
  'image/png': ['png'],
  'image/apng': ['apng', 'png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'image/heic': ['heic', 'heif', 'hif'],
  'image/heic-sequence': ['heics', 'heic', 'heif'],
  'image/heif': ['heif', 'heic', 'hif'],
  'image/heif-sequence': ['heifs', 'heif', 'heic'],
  'image/tiff': ['tif', 'tiff'],
  'image/bmp': ['bmp', 'dib'],
  'image/x-icon': ['ico', 'cur'],
  'image/icns': ['icns'],
  'image/jxl': ['jxl'],
  'image/jp2': ['jp2', 'j2k'],
  'image/jpx': ['jpx', 'jpf'],
  'image/jpm': ['jpm'],
  'image/vnd.adobe.photoshop': ['psd', 'psb'],
  'image/vnd.ms-photo': ['jxr', 'wdp', 'hdp'],
  'image/x-adobe-dng': ['dng'],
  'image/x-canon-cr2': ['cr2'],
  'image/x-canon-cr3': ['cr3'],
  'image/x-nikon-nef': ['nef'],
  'image/x-sony-arw': ['arw'],
  'image/x-fujifilm-raf': ['raf'],
  'image/x-olympus-orf': ['orf'],
  'image/x-panasonic-rw2': ['rw2'],
  'image/x-xcf': ['xcf'],
  'image/svg+xml': ['svg', 'svgz'],
  'video/mp4': ['mp4', 'm4v', 'mp4v', 'mpg4'],
  'video/x-m4v': ['m4v', 'mp4'],
  'video/quicktime': ['mov', 'qt'],
  'video/webm': ['webm'],
  'video/matroska': ['mkv', 'mk3d', 'mka', 'mks'],
  'video/vnd.avi': ['avi'],
  'video/mpeg': ['mpg', 'mpeg', 'mpe', 'm1v', 'm2v', 'vob'],
  'video/mp2t': ['ts', 'mts', 'm2ts'],
  'video/3gpp': ['3gp', '3gpp'],
  'video/3gpp2': ['3g2', '3gpp2'],
  'video/ogg': ['ogv', 'ogg'],
  'video/x-flv': ['flv'],
  'video/x-ms-asf': ['wmv', 'asf'],
  'audio/mpeg': ['mp3', 'mpga', 'mp2'],
  'audio/mp4': ['m4a', 'mp4', 'aac'],
  'audio/x-m4a': ['m4a'],
  'audio/aac': ['aac'],
  'audio/ogg': ['ogg', 'oga', 'opus', 'spx'],
  'audio/ogg; codecs=opus': ['opus', 'ogg', 'oga'],
  'audio/flac': ['flac'],
  'audio/wav': ['wav', 'wave'],
  'audio/aiff': ['aif', 'aiff', 'aifc'],
  'audio/amr': ['amr'],
  'audio/midi': ['mid', 'midi'],
  'audio/x-ms-asf': ['wma', 'asf'],
  'application/pdf': ['pdf'],
  'application/rtf': ['rtf'],
  'application/postscript': ['ps', 'eps', 'ai'],
  'application/eps': ['eps'],
  'application/epub+zip': ['epub'],
  'application/x-mobipocket-ebook': ['mobi', 'prc', 'azw'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template': ['dotx'],
  'application/vnd.ms-word.document.macroenabled.12': ['docm'],
  'application/vnd.ms-word.template.macroenabled.12': ['dotm'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template': ['xltx'],
  'application/vnd.ms-excel.sheet.macroenabled.12': ['xlsm'],
  'application/vnd.ms-excel.template.macroenabled.12': ['xltm'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow': ['ppsx'],
  'application/vnd.openxmlformats-officedocument.presentationml.template': ['potx'],
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': ['pptm'],
  'application/vnd.ms-powerpoint.slideshow.macroenabled.12': ['ppsm'],
  'application/vnd.ms-powerpoint.template.macroenabled.12': ['potm'],
  'application/vnd.oasis.opendocument.text': ['odt'],
  'application/vnd.oasis.opendocument.text-template': ['ott'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'application/vnd.oasis.opendocument.spreadsheet-template': ['ots'],
  'application/vnd.oasis.opendocument.presentation': ['odp'],
  'application/vnd.oasis.opendocument.presentation-template': ['otp'],
  'application/vnd.oasis.opendocument.graphics': ['odg'],
  'application/vnd.oasis.opendocument.graphics-template': ['otg'],
  'application/vnd.visio': ['vsdx'],
  'application/x-cfb': [
    'cfb',
    'doc',
    'dot',
    'xls',
    'xlt',
    'ppt',
    'pps',
    'pot',
    'msg',
    'msi',
    'vsd',
  ],
  'application/vnd.ms-outlook': ['pst', 'ost'],
  'application/zip': ['zip'],
  'application/x-tar': ['tar'],
  'application/gzip': ['gz', 'tgz'],
  'application/x-bzip2': ['bz2', 'tbz2', 'tbz'],
  'application/x-xz': ['xz', 'txz'],
  'application/zstd': ['zst', 'tzst'],
  'application/x-7z-compressed': ['7z'],
  'application/x-rar-compressed': ['rar'],
  'application/x-lzh-compressed': ['lzh', 'lha'],
  'application/x-apple-diskimage': ['dmg'],
  'application/java-archive': ['jar'],
  'application/vnd.android.package-archive': ['apk'],
  'application/x-msdownload': ['exe', 'dll', 'com', 'scr', 'sys', 'cpl', 'ocx', 'efi', 'pif'],
  'application/x-ms-regedit': ['reg'],
  'application/x.ms.shortcut': ['lnk'],
  'application/x-sqlite3': ['sqlite', 'sqlite3', 'db'],
  'application/wasm': ['wasm'],
  'application/x-shockwave-flash': ['swf'],
  'application/vnd.ms-htmlhelp': ['chm'],
  'application/vnd.sketchup.skp': ['skp'],
  'image/vnd.dwg': ['dwg'],
  'model/stl': ['stl'],
  'model/gltf-binary': ['glb'],
  'model/3mf': ['3mf'],
  'font/woff': ['woff'],
  'font/woff2': ['woff2'],
  'font/ttf': ['ttf'],
  'font/otf': ['otf'],
  'font/collection': ['ttc'],
  'text/calendar': ['ics', 'ical', 'ifb'],
  'text/vcard': ['vcf', 'vcard'],
  'text/vtt': ['vtt'],
  'text/html': ['html', 'htm', 'shtml', 'xhtml', 'xht'],
  'text/plain': ['txt'],
  'application/xml': ['xml'],
};

/**
 * Types whose bytes many formats share (any UTF-8 text, any XML, any zip or OLE container): a
 * name's extension is trusted for them unless it is active or belongs to another known type, so
 * `data.csv`, `track.gpx`, `design.sketch` and `README` keep their names.
 */
const CONTAINER_TYPES = new Set([
  'text/plain',
  'application/xml',
  'application/zip',
  'application/x-cfb',
]);

/**
 * Extensions that a computer runs or renders as a document with scripts when the file is opened
 * from disk: web documents (HTML, XHTML, MHTML, SVG, XML with its stylesheets), scripts the
 * desktop runs on a double click (JavaScript and VBScript under Windows Script Host, HTA, batch,
 * PowerShell, macOS `.command`/`.tool`, Linux `.desktop`, shell scripts) and shortcuts that point
 * elsewhere. A name ending in one of these is only offered as such when the bytes are that type.
 */
export const ACTIVE_EXTENSIONS: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'shtml',
  'xhtml',
  'xht',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'js',
  'mjs',
  'cjs',
  'jse',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'hta',
  'bat',
  'cmd',
  'ps1',
  'psm1',
  'sh',
  'command',
  'tool',
  'desktop',
  'url',
  'webloc',
  'scf',
  'lnk',
  'inf',
  'reg',
  'jar',
  'msi',
  'exe',
  'com',
  'scr',
  'pif',
]);

/** What a name is offered as when its type has no extension of its own. */
export const UNKNOWN_TYPE_EXTENSION = 'bin';

/** Every extension some known type claims, so that a container type does not accept it. */
const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  Object.entries(EXTENSIONS_OF_TYPE)
    .filter(([type]) => !CONTAINER_TYPES.has(type))
    .flatMap(([, extensions]) => extensions),
);

/** The longest text after a dot that counts as an extension (longer is part of the name). */
const MAX_EXTENSION_LENGTH = 16;

function splitExtension(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { stem: name, extension: '' };
  const extension = name.slice(dot + 1);
  if (/\s/u.test(extension) || Array.from(extension).length > MAX_EXTENSION_LENGTH)
    return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension };
}

/** `image/jpeg` of `Image/JPEG; q=1`; the Opus type keeps its codecs parameter, as file-type names it. */
function mediaType(contentType: string): string {
  const lower = contentType.trim().toLowerCase();
  if (EXTENSIONS_OF_TYPE[lower] !== undefined) return lower;
  return (lower.split(';')[0] ?? '').trim();
}

/**
 * The name to offer a file stored as `name` (already safe: see safeFileName) whose bytes were
 * sniffed as `contentType`:
 * - a type's own extension is kept as written (`IMG_1.JPEG` stays);
 * - a known type gets its usual extension instead of any other, or added when the name has none
 *   (`polyglot.html` as image/jpeg → `polyglot.jpg`, `photo` → `photo.jpg`);
 * - text, XML, zip and OLE containers keep any extension that is neither active nor another
 *   known type's, and otherwise get theirs (`notes.csv` stays, `run.js` as text → `run.txt`);
 * - a type without a known extension (application/octet-stream) keeps its name unless its
 *   extension is active or another known type's, then gets `.bin` (`page.html` → `page.bin`).
 */
export function offeredFileName(name: string, contentType: string): string {
  const type = mediaType(contentType);
  const { stem, extension } = splitExtension(name);
  const lower = extension.toLowerCase();
  const own = EXTENSIONS_OF_TYPE[type];
  if (own?.includes(lower)) return name;
  const trusted =
    own === undefined || CONTAINER_TYPES.has(type)
      ? !ACTIVE_EXTENSIONS.has(lower) && !KNOWN_EXTENSIONS.has(lower)
      : false;
  if (trusted) return name;
  return `${stem}.${own?.[0] ?? UNKNOWN_TYPE_EXTENSION}`;
}
