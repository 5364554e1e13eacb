import {
  Content,
  ContentHeader,
  Header,
  Page,
} from '@backstage/core-components';
import { BreadcrumbEntry } from '@backstage/frontend-plugin-api';
import { ReactNode, createContext, useContext } from 'react';
import { useKryptonT } from '../translation';

/**
 * Who draws the page's header: the page itself (the legacy frontend system, whose pages draw
 * their own `Header`), or the app (the new frontend system draws the plugin's header above a
 * page, with breadcrumbs that pages register).
 */
export type KryptonHeaderMode = 'page' | 'app';

const HeaderModeContext = createContext<KryptonHeaderMode>('page');

/** Set by the new frontend system's page extension; the legacy page keeps the default. */
export const KryptonHeaderModeProvider = HeaderModeContext.Provider;

/** A step back up from the page, drawn as a breadcrumb or as the legacy header's type link. */
export interface PageCrumb {
  label: string;
  href: string;
}

export interface KryptonPageFrameProps {
  title: string;
  subtitle: string;
  /** This page inside the plugin, below the plugin's own root (which the app's header links). */
  crumbs?: { parent: PageCrumb; self: PageCrumb };
  children: ReactNode;
}

/** The frame of the platform page's routes, drawn for the frontend system the app uses. */
export function KryptonPageFrame(props: KryptonPageFrameProps) {
  const mode = useContext(HeaderModeContext);
  const t = useKryptonT();
  const { title, subtitle, crumbs, children } = props;
  if (mode === 'app') {
    // The app's header already names the plugin; a sub page names itself in its content.
    if (!crumbs) return <Content>{children}</Content>;
    return (
      <BreadcrumbEntry entry={crumbs.parent}>
        <BreadcrumbEntry entry={crumbs.self}>
          <Content>
            <ContentHeader title={title} description={subtitle} />
            {children}
          </Content>
        </BreadcrumbEntry>
      </BreadcrumbEntry>
    );
  }
  return (
    <Page themeId="tool">
      <Header
        title={title}
        subtitle={subtitle}
        type={crumbs ? t('page.header.type') : undefined}
        typeLink={crumbs?.parent.href}
      />
      <Content>{children}</Content>
    </Page>
  );
}
