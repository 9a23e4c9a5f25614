/** Model-facing description of `GrokBuild:read_file`, verbatim from the reference (`DESCRIPTION_FULL`). */

/** The description template: `${{ params.read.target_file }}` and `{max_lines_read}` are filled at finalize. */
export const READ_FILE_DESCRIPTION = String.raw`Read a file.

Usage:
- The ${"$"}{{ params.read.target_file }} parameter can be a relative path in the workspace or an absolute path
- By default, it reads up to {max_lines_read} lines starting from the beginning of the file
- Line numbers (1-based) appear as anchors in the format LINE_NUMBER→LINE_CONTENT on the first returned line and on every 10th line of the file; the lines in between show content only. Count from the nearest anchor when referring to a specific line
- This tool can read PDF files (.pdf), PowerPoint files (.pptx), Jupyter notebooks (.ipynb files), and image files (e.g. PNG, JPG, etc).
- When reading an image file the contents are presented visually as this tool uses multimodal LLMs.`;
