import { render, waitFor } from '@testing-library/react';
import App from './App';

describe('App', () => {
  it('renders the sign-in page with the two demo users', async () => {
    process.env = {
      NODE_ENV: 'test',
      APP_CONFIG: [
        {
          data: {
            app: { title: 'Krypton demo' },
            backend: { baseUrl: 'http://localhost:7007' },
          },
          context: 'test',
        },
      ] as unknown as string,
    };
    const rendered = render(App.createRoot());
    await waitFor(() =>
      expect(rendered.getByText('Guest')).toBeInTheDocument(),
    );
    expect(rendered.getByText('Reviewer')).toBeInTheDocument();
    expect(
      rendered.getByText(
        'Sign in as the demo reviewer, user:default/reviewer of team-a.',
      ),
    ).toBeInTheDocument();
  });
});
