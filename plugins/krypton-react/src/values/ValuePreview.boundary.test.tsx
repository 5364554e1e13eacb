import { renderValues } from '../__testUtils__/renderValues';
import { screen } from '@testing-library/react';
import { ValuePreview } from './ValuePreview';

// Stands in for a renderer that overflows the stack on a pathological document.
jest.mock('./markdown', () => ({
  MarkdownPreview: () => {
    throw new RangeError('Maximum call stack size exceeded');
  },
}));

describe('ValuePreview: renderer failure', () => {
  it('shows the raw text instead of throwing', async () => {
    // React reports caught render errors on the console; that report is expected here.
    const consoleError = jest
      .spyOn(console, 'error')
      .mockImplementation(() => undefined);
    try {
      const value = '# Deep\n\n> > > text';
      await renderValues(<ValuePreview value={value} initialMode="markdown" />);
      expect(
        screen.getByText(
          'This value could not be previewed; showing the raw text.',
        ),
      ).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Raw text' }).textContent).toBe(
        value,
      );
    } finally {
      consoleError.mockRestore();
    }
  });
});
