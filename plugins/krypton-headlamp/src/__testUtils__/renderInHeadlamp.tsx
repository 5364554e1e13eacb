import { createMuiTheme } from '@kinvolk/headlamp-plugin/lib/lib/themes';
import { lightTheme } from '@kinvolk/headlamp-plugin/lib/components/App/defaultAppThemes';
import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { ReactElement } from 'react';

const theme = createMuiTheme(lightTheme);

/**
 * Renders inside Headlamp's light theme, as its Storybook does: Headlamp's components read its
 * theme's own fields (SectionHeader throws without them).
 */
export function renderInHeadlamp(ui: ReactElement) {
  return render(<ThemeProvider theme={theme}>{ui}</ThemeProvider>);
}
