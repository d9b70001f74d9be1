import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The CSS named colours (CSS Color Module Level 4), which are as literal as a hex value. */
const NAMED = new Set(
  `
  aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
  burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
  darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid
  darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
  deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
  ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
  lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow
  lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
  lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
  mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
  midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
  palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
  rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver
  skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet
  wheat white whitesmoke yellow yellowgreen
`
    .trim()
    .split(/\s+/),
);

/** Every literal colour in a stylesheet's declarations, with its line, comments left out. */
function literalColours(css: string): Array<{ line: number; colour: string }> {
  const found: Array<{ line: number; colour: string }> = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  text.split('\n').forEach((source, index) => {
    // A rule on one line has its declarations after the brace; quoted text is never a colour.
    const body = source.slice(source.lastIndexOf('{') + 1).replace(/(["'])(?:(?!\1).)*\1/g, '""');
    const declaration = /^\s*[\w-]+\s*:\s*([^;{}]*)/.exec(body);
    if (!declaration) return;
    const value = declaration[1]!;
    const colours = [
      ...value.matchAll(/#[0-9a-f]{3,8}\b/gi),
      ...value.matchAll(/\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/gi),
      ...[...value.matchAll(/(?<![\w-])[a-z]+(?![\w(-])/gi)].filter((m) => NAMED.has(m[0].toLowerCase())),
    ];
    for (const colour of colours) found.push({ line: index + 1, colour: colour[0] });
  });
  return found;
}

describe('colours in renderer/styles', () => {
  it('are tokens: a literal colour outside tokens.css fails', () => {
    const folder = path.dirname(new URL(import.meta.url).pathname);
    const literals = readdirSync(folder)
      .filter((name) => name.endsWith('.css') && name !== 'tokens.css')
      .flatMap((name) =>
        literalColours(readFileSync(path.join(folder, name), 'utf8')).map(
          (l) => `${name}:${l.line} ${l.colour}`,
        ),
      );
    expect(literals).toEqual([]);
  });

  it('finds hex, functional and named colours, and not tokens, keywords or selectors', () => {
    const css = [
      '/* #fff in a comment */',
      '.a { color: #1a2b3c; }',
      '.b:hover {',
      '  background: rgba(0, 0, 0, 0.2);',
      '  border: 1px solid white;',
      '  box-shadow: 0 0 0 2px var(--brand), inset 0 1px hsl(0 0% 50%);',
      '  color: var(--text);',
      '  background: transparent;',
      '  border-color: currentColor;',
      '  font: inherit;',
      '}',
      '#main { grid-template-areas: "tan"; }',
    ].join('\n');
    expect(literalColours(css)).toEqual([
      { line: 2, colour: '#1a2b3c' },
      { line: 4, colour: 'rgba(' },
      { line: 5, colour: 'white' },
      { line: 6, colour: 'hsl(' },
    ]);
  });
});
