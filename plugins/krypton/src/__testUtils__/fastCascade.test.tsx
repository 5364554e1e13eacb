import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import TextField from '@material-ui/core/TextField';
import { render, screen } from '@testing-library/react';
import { cannotMatch } from './fastCascade';

const handWritten = [
  'div',
  'DIV',
  'td, th',
  'table > tbody > tr',
  'address, blockquote, center, dialog, div, figure',
  'dialog:not([open])',
  '[popover]:not(:popover-open):not(dialog[open])',
  'input[type=checkbox i]',
  '.a',
  '.a.b',
  'p .a',
  '.x > .a',
  '.x + .a',
  '.x ~ .a',
  '.a:hover',
  '.a::before',
  '.a:not(.b)',
  ':is(.a, .c)',
  '.c, .a',
  'span.a',
  'div.a',
  '#one',
  '*',
  '.a  ',
  '.x   .a',
  'svg rect',
  'rect',
  'foreignObject',
  '.MuiButton-root.Mui-disabled',
  'svg|rect',
  '.a\\:b',
];

/** As jsdom's cascade reads a selector that its engine refuses (`::-moz-focus-inner`): no match. */
function matches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}

/** Every selector that MUI put into the document for these components. */
function sheetSelectors(): string[] {
  const selectors: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of Array.from(sheet.cssRules)) {
      if (rule instanceof CSSStyleRule) selectors.push(rule.selectorText);
      if (rule instanceof CSSMediaRule) {
        for (const inner of Array.from(rule.cssRules)) {
          if (inner instanceof CSSStyleRule) selectors.push(inner.selectorText);
        }
      }
    }
  }
  return selectors;
}

describe('the style cascade pre-check', () => {
  it('never rules out a selector that the element matches', () => {
    render(
      <div className="x">
        <p>
          <span className="a b" id="one">
            text
          </span>
        </p>
        <div className="a" />
        <span className="x" />
        <span className="a" />
        <table>
          <tbody>
            <tr>
              <td className="a">cell</td>
            </tr>
          </tbody>
        </table>
        <dialog />
        <svg>
          <rect className="a" />
          <foreignObject />
        </svg>
        <input type="checkbox" />
        <Button disabled>Save</Button>
        <Checkbox />
        <TextField label="Key" error helperText="Required" />
      </div>,
    );
    const selectors = [...handWritten, ...sheetSelectors()];
    const elements = Array.from(document.querySelectorAll('*'));
    let ruledOut = 0;
    const wronglyRuledOut: string[] = [];
    for (const selector of selectors) {
      for (const element of elements) {
        if (cannotMatch(selector, element)) {
          ruledOut++;
          if (matches(element, selector)) {
            wronglyRuledOut.push(`${selector} on ${element.outerHTML}`);
          }
        }
      }
    }
    expect(wronglyRuledOut).toEqual([]);
    // The pre-check is worth having only if it rules out most pairs.
    expect(ruledOut).toBeGreaterThan((selectors.length * elements.length) / 2);
  });

  it('leaves getComputedStyle answering as before', () => {
    render(
      <div>
        <style>
          {'.hide { display: none } div > .dim.faint { visibility: hidden }'}
        </style>
        <span className="hide">gone</span>
        <div>
          <span className="dim faint">faint</span>
          <span className="dim">shown</span>
        </div>
      </div>,
    );
    expect(screen.getByText('gone')).not.toBeVisible();
    expect(screen.getByText('faint')).not.toBeVisible();
    expect(screen.getByText('shown')).toBeVisible();
  });
});
