// Build-time rendering of the first screen a new visitor sees (issue 30): the login chooser, in
// Faroese, with React's own static renderer (react-dom/static). prerender-plugin.ts loads this
// module through Vite at build time and writes the markup into index.html, so a guest's first
// paint is the login screen itself, not a splash waiting for JavaScript.
import { prerender } from 'react-dom/static';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { LoginChooserScreen } from '@/features/auth/login-chooser-screen';
import { ROUTES } from '@/shared/config/paths';
import { createI18n } from '@/shared/i18n/i18n';
import fo from '@/shared/i18n/resources-fo';
import { ScreenColumn } from './root-layout';

/**
 * The login chooser at `ROUTES.login` as static HTML (what the app renders there, signed out).
 * It is on screen before the app's JavaScript has run, and the app replaces it when it mounts: a
 * button there (the language switch) would take a tap and lose it. So the whole screen sits in a
 * disabled fieldset, which disables every button and field in it and no link, and lays out
 * nothing of its own (`contents`): a tap before the app has started is either done (a link loads
 * its page) or plainly not yet possible — never silently dropped (issue 41).
 */
export async function renderLoginScreen(): Promise<string> {
  const i18n = createI18n('fo', { fo });
  const { prelude } = await prerender(
    <fieldset disabled className="contents">
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[ROUTES.login]}>
          <ScreenColumn>
            <LoginChooserScreen />
          </ScreenColumn>
        </MemoryRouter>
      </I18nextProvider>
    </fieldset>,
  );
  return new Response(prelude).text();
}
