/** The part of busboy 1.6's API the multipart reader uses (the package ships no types). */
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  namespace busboy {
    interface Limits {
      fieldNameSize?: number;
      fieldSize?: number;
      fields?: number;
      fileSize?: number;
      files?: number;
      parts?: number;
      headerPairs?: number;
    }
    interface Config {
      headers: IncomingHttpHeaders;
      limits?: Limits;
      defParamCharset?: string;
      defCharset?: string;
      preservePath?: boolean;
    }
    interface FieldInfo {
      nameTruncated: boolean;
      valueTruncated: boolean;
      encoding: string;
      mimeType: string;
    }
    interface FileInfo {
      /** Absent for a part that is a file only by its content type. */
      filename: string;
      encoding: string;
      mimeType: string;
    }
    interface Busboy extends Writable {
      on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
      on(event: 'file', listener: (name: string, stream: Readable, info: FileInfo) => void): this;
      on(event: 'fieldsLimit' | 'filesLimit' | 'partsLimit' | 'close' | 'drain' | 'finish', listener: () => void): this;
      on(event: 'error', listener: (err: Error) => void): this;
      on(event: string | symbol, listener: (...args: unknown[]) => void): this;
    }
  }

  function busboy(config: busboy.Config): busboy.Busboy;
  export = busboy;
}
