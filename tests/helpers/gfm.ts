/**
 * Markdown read as GitHub reads it: micromark with its GFM extension (the reference CommonMark parser), a
 * test-only dependency. `gfmProblems` lists every way a text fails to be the blocks it means to be.
 */

import { micromark, parse, postprocess, preprocess } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

/** A table as the parser saw it: its first line, the header's cells and each body row's cells in the source. */
export interface GfmTable {
  line: number;
  header: number;
  delimiter: number;
  rows: { line: number; cells: number }[];
}

/** The blocks of a Markdown text: tables, headings, and paragraphs with the lines they span. */
export interface GfmBlocks {
  tables: GfmTable[];
  headings: { line: number; depth: number }[];
  paragraphs: { start: number; end: number }[];
  html: string;
}

/** Parses `markdown` as GFM. */
export function gfmBlocks(markdown: string): GfmBlocks {
  const events = postprocess(
    parse({ extensions: [gfm()] }).document().write(preprocess()(markdown, undefined, true)),
  );
  const blocks: GfmBlocks = {
    tables: [],
    headings: [],
    paragraphs: [],
    html: micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] }),
  };
  let table: GfmTable | undefined;
  let row: { line: number; cells: number } | undefined;
  let inHead = false;
  for (const [kind, token] of events) {
    const line = token.start.line;
    // The table token types are declared by the table extension's typings, which this module does not load.
    const type: string = token.type;
    if (kind === "exit") {
      if (type === "paragraph") blocks.paragraphs.push({ start: line, end: token.end.line });
      if (type === "tableHead") inHead = false;
      continue;
    }
    if (type === "table") blocks.tables.push(table = { line, header: 0, delimiter: 0, rows: [] });
    else if (type === "tableHead") inHead = true;
    else if (type === "tableRow" && !inHead) table!.rows.push(row = { line, cells: 0 });
    else if (type === "tableHeader") table!.header++;
    else if (type === "tableDelimiter") table!.delimiter++;
    else if (type === "tableData") row!.cells++;
    else if (type === "atxHeading") blocks.headings.push({ line, depth: 0 });
    else if (type === "atxHeadingSequence") {
      blocks.headings.at(-1)!.depth = token.end.offset - token.start.offset;
    }
  }
  return blocks;
}

/**
 * What is wrong with `markdown` as GFM, one line per problem: a table whose delimiter row or a body row has
 * another cell count than its header; a line that starts with `|` outside any table (GitHub shows raw pipes); a
 * paragraph spanning lines (sentences meant apart run together); a `#` line that is not a heading; and the HTML's
 * tables, header cells and body cells disagreeing with the source's.
 */
export function gfmProblems(markdown: string): string[] {
  const blocks = gfmBlocks(markdown);
  const problems: string[] = [];
  const lines = markdown.split("\n");
  const tableLines = new Set<number>();
  for (const table of blocks.tables) {
    tableLines.add(table.line).add(table.line + 1);
    if (table.delimiter !== table.header) {
      problems.push(
        `line ${table.line + 1}: ${table.delimiter} delimiter cells under ${table.header} headers`,
      );
    }
    for (const row of table.rows) {
      tableLines.add(row.line);
      if (row.cells !== table.header) {
        problems.push(`line ${row.line}: ${row.cells} cells under ${table.header} headers`);
      }
    }
  }
  lines.forEach((text, index) => {
    if (text.startsWith("|") && !tableLines.has(index + 1)) {
      problems.push(`line ${index + 1}: a table line outside any table: ${text}`);
    }
  });
  for (const paragraph of blocks.paragraphs) {
    if (paragraph.end !== paragraph.start) {
      problems.push(`lines ${paragraph.start}–${paragraph.end}: one paragraph`);
    }
  }
  const headingLines = new Set(blocks.headings.map((heading) => heading.line));
  lines.forEach((text, index) => {
    if (/^#{1,6} /.test(text) && !headingLines.has(index + 1)) {
      problems.push(`line ${index + 1}: not a heading`);
    }
  });
  problems.push(...htmlProblems(blocks));
  return problems;
}

/** The rendered HTML against the source's tables: as many tables, header cells and body cells per row. */
function htmlProblems(blocks: GfmBlocks): string[] {
  const tables = [...blocks.html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((match) => match[1]);
  if (tables.length !== blocks.tables.length) {
    return [`the HTML has ${tables.length} tables, the source ${blocks.tables.length}`];
  }
  return tables.flatMap((html, index) => {
    const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((match) => match[1]);
    const source = blocks.tables[index];
    const [head, ...body] = rows;
    const th = (head?.match(/<th[ >]/g) ?? []).length;
    const problems = th === source.header ? [] : [`table at line ${source.line}: ${th} <th> in the HTML`];
    if (body.length !== source.rows.length) {
      problems.push(
        `table at line ${source.line}: ${body.length} body rows in the HTML, ${source.rows.length} in the source`,
      );
    }
    body.forEach((cells, row) => {
      const td = (cells.match(/<td[ >]/g) ?? []).length;
      if (td !== source.header) problems.push(`table at line ${source.line}, row ${row + 1}: ${td} <td>`);
    });
    return problems;
  });
}
