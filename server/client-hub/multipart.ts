/** A file a form sent. */
export interface FormFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: FormFile[];
}

/**
 * Reads a multipart/form-data body (RFC 7578), the way a form with a file input posts without
 * scripts. Undefined when the body is not well formed; empty file inputs are left out.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartForm | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return undefined;
  const delimiter = Buffer.from(`--${marker}`);
  const form: MultipartForm = { fields: {}, files: [] };
  let start = body.indexOf(delimiter);
  if (start < 0) return undefined;
  for (;;) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return form;
    const end = body.indexOf(delimiter, start);
    if (end < 0) return undefined;
    // Each part: CRLF, headers, CRLF CRLF, content, CRLF before the next delimiter.
    const part = body.subarray(start + 2, end - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const headers = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (!name) return undefined;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename === undefined) form.fields[name] = content.toString('utf8');
    else if (content.length > 0) {
      const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
      form.files.push({ field: name, filename, contentType: type.toLowerCase(), data: Buffer.from(content) });
    }
    start = end;
  }
}
