// The frame every page shares: header with search and the token sign-in, main content, footer. Pages are
// rendered to HTML on the server; assets/entia.js adds suggest and editing where scripts run.
import type { ComponentChildren, VNode } from 'preact';
import { render } from 'preact-render-to-string';
import { languageName } from './language.js';
import { Messages, scriptMessages, translator, useT, type Translate } from './messages.js';
import { KINDS } from '../domain/kinds.js';

export interface PageProps {
  title: string;
  language: string;
  children: ComponentChildren;
  /** The search box's text, on a search page. */
  query?: string;
}

export function Layout(props: PageProps) {
  return <Messages.Provider value={translator(props.language)}><Frame {...props} /></Messages.Provider>;
}

function Frame({ title, language, children, query }: PageProps) {
  const t = useT();
  const languageNow = languageName(language, language);
  const messages = scriptMessages(language);
  return (
    <html lang={language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} – Entia`}</title>
        <link rel="stylesheet" href="/ui/assets/entia.css" />
        {/* Where the Action API is, as MediaWiki pages say it: Pywikibot's generate_family_file finds it here. */}
        <link rel="EditURI" type="application/rsd+xml" href="/w/api.php?action=rsd" />
        {/* Data, not code (never run, so outside the CSP's script rules): the scripts' messages (ui/messages.ts). */}
        {messages ? <script type="application/json" id="ui-messages" dangerouslySetInnerHTML={{ __html: messages }} /> : null}
        {/* Data too: the kinds of entity, which the scripts choose by (assets/kinds.js). */}
        <script type="application/json" id="ui-kinds" dangerouslySetInnerHTML={{ __html: scriptKinds(t) }} />
        <script type="module" src="/ui/assets/entia.js" />
      </head>
      <body data-language={language}>
        <a class="skip-link" href="#content">{t('Skip to content')}</a>
        <header class="site-header">
          <a href="/" class="brand">Entia</a>
          <form role="search" action="/search" method="get" class="search-form">
            <label for="search-input" class="visually-hidden">{t('Search items and properties')}</label>
            <input id="search-input" name="q" type="search" value={query ?? ''} placeholder={t('Search items and properties')}
              autocomplete="off" maxLength={300} data-suggest="items" aria-describedby="search-hint" />
            <span id="search-hint" class="visually-hidden">{t('Suggestions appear below as you type')}</span>
            <button type="submit">{t('Search')}</button>
          </form>
          <nav aria-label={t('Site')}>
            <a href="/recent-changes">{t('Recent changes')}</a>
            <a href="/items">{t('Browse')}</a>
            <a href="/docs">{t('API')}</a>
            <span id="account" class="account" aria-live="polite" />
          </nav>
        </header>
        <div id="notice" role="status" aria-live="polite" class="notice" hidden />
        <main id="content" tabIndex={-1}>{children}</main>
        <footer class="site-footer">
          <p>{t('Entia: a knowledge base of items and properties, served over a Wikibase-style REST API')} (<a href="/docs">{t('reference')}</a>).</p>
          {/* The language of labels and descriptions, kept for the next pages (ui/language.ts). */}
          <form method="get" class="language-picker">
            <label for="uselang">{languageNow ? t('Language (now {0})', languageNow) : t('Language')}</label>
            <input id="uselang" name="uselang" type="text" size={8} maxLength={20} value={language} autocomplete="off" />
            <button type="submit">{t('Change')}</button>
          </form>
        </footer>
      </body>
    </html>
  );
}

export function renderPage(page: VNode): string {
  return `<!doctype html>${render(page)}`;
}

/** A part of a page (Rendered.part), in the page's language. */
export function renderPart(content: ComponentChildren, language: string): string {
  return render(<Messages.Provider value={translator(language)}>{content}</Messages.Provider>);
}

/**
 * The kinds' facts the scripts choose by (assets/kinds.js), their words in the page's language, as JSON safe
 * inside a `<script>` data block (no `<`).
 */
function scriptKinds(t: Translate): string {
  return JSON.stringify(KINDS.map((kind) => ({
    name: kind.name, prefix: kind.prefix, segment: kind.segment, createField: kind.createField, dataType: kind.dataType,
    hasDataType: kind.hasDataType, redirects: kind.redirects, one: t(kind.words.one), pick: t(kind.words.pick),
  }))).replaceAll('<', '\\u003c');
}
