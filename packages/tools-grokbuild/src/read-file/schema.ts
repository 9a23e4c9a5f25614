/** Input, output and params schemas of `GrokBuild:read_file` (spec §4.2), and the derived types. */
import { Type, type Static } from "@grok-tools/runtime";

/** Input (`ReadFileInput` of the reference; the wire key of the path is `target_file`). */
export const ReadFileInput = Type.Object({
  target_file: Type.String({
    description:
      "The path of the file to read. You can use either a relative path in the workspace or an absolute path. If an absolute path is provided, it will be preserved as is.",
  }),
  offset: Type.Optional(
    Type.Integer({
      default: 1,
      description: "The line number to start reading from. Only provide if the file is too large to read at once.",
    }),
  ),
  limit: Type.Optional(Type.Integer({ description: "The number of lines to read. Only provide if the file is too large to read at once." })),
  pages: Type.Optional(
    Type.Unsafe<string | null>({
      type: ["string", "null"],
      description:
        "Page range for PDF files (e.g. '1-5', '3', '10-'). Required for PDFs with more than 10 pages. Max 20 pages per call. Ignored for non-PDF files.",
    }),
  ),
  format: Type.Optional(
    Type.Unsafe<string | null>({
      type: ["string", "null"],
      description: "Output format for PDF files. 'image' (default) renders pages as images. 'text' extracts text content. Ignored for non-PDF files.",
    }),
  ),
});
export type ReadFileInput = Static<typeof ReadFileInput>;

/** An image found inline (a `data:image/...;base64,` URI) in a text line. */
export const ExtractedImage = Type.Object({ data: Type.String(), mime_type: Type.String() });
export type ExtractedImage = Static<typeof ExtractedImage>;

/** The text of a read window. */
export const FileContent = Type.Object({
  content: Type.String({ description: "The numbered lines shown to the model" }),
  content_concise: Type.Optional(Type.String({ description: "Same text as content (kept for compatibility)" })),
  absolute_path: Type.String({ description: "The canonical path read" }),
  offset: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: "The offset asked for (non-negative offsets only)" }),
  limit: Type.Optional(Type.Integer({ minimum: 0, description: "The limit asked for" })),
  raw_output: Type.String({ description: "The exact file text of the window" }),
  total_lines: Type.Integer({ minimum: 0, description: "Lines in the file (newlines + 1; 0 when empty)" }),
  extracted_images: Type.Optional(Type.Array(ExtractedImage, { description: "Inline base64 images taken out of the lines" })),
});
export type FileContent = Static<typeof FileContent>;

/** An image file, base64-encoded. */
export const ImageContent = Type.Object({
  data: Type.String({ description: "Base64-encoded image data" }),
  mime_type: Type.String({ description: 'MIME type of the image (e.g., "image/png", "image/jpeg")' }),
  annotations: Type.Optional(Type.Unknown()),
  uri: Type.Optional(Type.String()),
  meta: Type.Optional(Type.Unknown()),
});
export type ImageContent = Static<typeof ImageContent>;

/** Rendered PDF pages. */
export const PdfPageImages = Type.Object({
  pages: Type.Array(Type.Object({ data: Type.String(), mime_type: Type.String(), page_number: Type.Integer({ minimum: 1 }) })),
  total_pages: Type.Integer({ minimum: 0 }),
  file_size: Type.Integer({ minimum: 0 }),
});
export type PdfPageImages = Static<typeof PdfPageImages>;

/** The names of the reference's failure variants; they travel as a ToolError's `details` (decision D1). */
export const READ_FILE_FAILURES = ["FileNotFound", "IsADirectory", "PermissionDenied", "FileTooLarge", "FileReadError", "ImageSizeError"] as const;
export type ReadFileFailure = (typeof READ_FILE_FAILURES)[number];

const tag = Type.Literal("ReadFile");

/** Output: the reference's `ReadFileOutput` variants under `type: "ReadFile"` (externally tagged inside). */
export const ReadFileOutput = Type.Union([
  Type.Object({ type: tag, FileContent }),
  Type.Object({ type: tag, ImageContent }),
  Type.Object({ type: tag, PdfPageImages }),
  ...READ_FILE_FAILURES.map((variant) => Type.Object({ type: tag, [variant]: Type.String() })),
]);
export type ReadFileOutput = Static<typeof ReadFileOutput>;
/** The successful outputs. */
export type ReadFileSuccess =
  { type: "ReadFile"; FileContent: FileContent } | { type: "ReadFile"; ImageContent: ImageContent } | { type: "ReadFile"; PdfPageImages: PdfPageImages };

/** Params (`grok_build.ReadFile`), shared with the concise twin. */
export const ReadFileParams = Type.Object(
  { cursor_rules_on_read: Type.Boolean({ default: false, description: "Append matching Cursor rules (.cursor/rules) after a read" }) },
  { additionalProperties: false },
);
export type ReadFileParams = Static<typeof ReadFileParams>;

/** Default params. */
export const READ_FILE_PARAMS_DEFAULTS: ReadFileParams = { cursor_rules_on_read: false };
