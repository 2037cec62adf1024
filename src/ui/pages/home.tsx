// The front page: what this is, a search box, and where to go next.
export function HomePage() {
  return (
    <section class="home">
      <h1>Entia</h1>
      <p>A knowledge base of items and properties: labels, descriptions and aliases in many languages, statements with
        qualifiers and references, and links to pages on other sites.</p>
      <form action="/search" method="get" class="home-search" role="search">
        <label for="home-q">Find an item or property by name, alias or id</label>
        <input id="home-q" name="q" type="search" maxLength={300} autocomplete="off" data-suggest="items" />
        <button type="submit">Search</button>
      </form>
      <ul class="home-links">
        <li><a href="/recent-changes">Recent changes</a>: what was edited lately.</li>
        <li><a href="/query">Query</a>: SPARQL over everything, as on the Wikidata Query Service.</li>
        <li><a href="/docs">API reference</a>: every route, tried from this page.</li>
        <li><a href="/Special:NewItem">Create a new item</a> or <a href="/Special:NewProperty">a new property</a>.</li>
      </ul>
    </section>
  );
}

export function ErrorPage({ status, message }: { status: number; message: string }) {
  return (
    <section class="error-page">
      <h1>{status === 404 ? 'Not found' : 'Something went wrong'}</h1>
      <p>{message}</p>
      <p><a href="/">Back to the front page</a></p>
    </section>
  );
}
