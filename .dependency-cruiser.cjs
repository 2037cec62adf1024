// Layer rules of the README's "Architecture", enforced by `npm test` (test/architecture/layers.test.ts).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true },
      comment: 'type imports included: a reader of one module must not have to read the other to know what it is (issue #32)' },
    {
      name: 'domain-is-pure', severity: 'error',
      comment: 'src/domain: no HTTP, no SQL, no I/O, no configuration',
      from: { path: '^src/domain/' },
      to: { path: ['^src/(store|http|cli|search|ui)/', '^src/config\\.ts$', 'node_modules/(fastify|preact|better-sqlite3|pg|ioredis|find-my-way|@fastify)/', '^(fs|net|http|https|child_process)$', '^node:(fs|net|http|https|child_process)$'] },
    },
    {
      name: 'search-is-shared-logic', severity: 'error',
      from: { path: '^src/search/' },
      to: { path: ['^src/(store|http|cli)/'] },
    },
    {
      name: 'sparql-reads-the-store-interface', severity: 'error',
      comment: 'the SPARQL engine and its mirror know the store only by its interface; their HTTP room is src/http/sparql',
      from: { path: '^src/sparql/' },
      to: { path: ['^src/(http|cli|ui|search)/', '^src/store/(sqlite|postgres)/', '^src/config\\.ts$', 'node_modules/(fastify|preact|better-sqlite3|pg|ioredis)/'] },
    },
    {
      name: 'store-interface-knows-no-backend', severity: 'error',
      from: { path: '^src/store/[^/]+\\.ts$' },
      to: { path: ['^src/store/(sqlite|postgres)/', '^src/(http|cli)/'] },
    },
    {
      name: 'backends-stay-apart', severity: 'error',
      from: { path: '^src/store/sqlite/' }, to: { path: ['^src/store/postgres/', '^src/(http|cli)/'] },
    },
    {
      name: 'backends-stay-apart-pg', severity: 'error',
      from: { path: '^src/store/postgres/' }, to: { path: ['^src/store/sqlite/', '^src/(http|cli)/'] },
    },
    {
      name: 'http-talks-to-the-interface', severity: 'error',
      comment: 'src/http uses store/store.ts only; no backend, no SQL driver',
      from: { path: '^src/http/' },
      to: { path: ['^src/store/(sqlite|postgres)/', '^src/cli/', 'node_modules/(better-sqlite3|pg)/'] },
    },
    {
      name: 'http-sees-only-the-store-interface', severity: 'error',
      comment: 'src/http reaches the store through store.ts (its named parts) and the revision cache it owns, nothing inside',
      from: { path: '^src/http/' },
      to: { path: '^src/store/', pathNot: '^src/store/(store|revision-cache)\\.ts$' },
    },
    {
      name: 'writes-go-through-the-pipeline', severity: 'error',
      comment: 'REST write handlers are declarations that write/rows.ts runs; they neither commit, parse metadata nor authorise',
      from: { path: '^src/http/rest/handlers/' },
      to: { path: ['^src/http/(meta|guard)\\.ts$', '^src/http/write/(commit|merge|redirect|turns)\\.ts$'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'one-write-path', severity: 'error',
      comment: 'every write of every dialect goes through the write pipeline: the commit steps and the turns are reached only from src/http/write/ (ADR 0020); services.ts makes the one queue of turns',
      from: { path: '^src/', pathNot: ['^src/http/write/', '^src/http/services\\.ts$'] },
      to: { path: '^src/http/write/(commit|merge|redirect|turns)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'rooms-meet-at-doors', severity: 'error',
      comment: 'each dialect or service of src/http is a room (rest, action-api, reconcile, sparql, entity-data, change-stream, operations, quickstatements); another room reaches it only through its door, index.ts (ADR 0020)',
      from: { path: '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/' },
      to: { path: '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/', pathNot: ['^src/http/$1/', '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/index\\.ts$'] },
    },
    {
      name: 'kernel-knows-rooms-by-their-doors', severity: 'error',
      comment: 'the HTTP kernel (src/http/*.ts, src/http/write/) uses no room; app.ts mounts each through its door',
      from: { path: '^src/http/([^/]+\\.ts$|write/)', pathNot: '^src/http/app\\.ts$' },
      to: { path: '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/' },
    },
    {
      name: 'app-mounts-rooms-by-their-doors', severity: 'error',
      from: { path: '^src/http/app\\.ts$' },
      to: { path: '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/', pathNot: '^src/http/(rest|action-api|reconcile|sparql|entity-data|change-stream|operations|quickstatements)/index\\.ts$' },
    },
    {
      name: 'ui-talks-to-the-api', severity: 'error',
      comment: 'src/ui reads through the HTTP API (ui/api.ts) and renders domain shapes; no store, no handlers',
      from: { path: '^src/ui/' },
      to: { path: ['^src/(store|cli|http|search)/', 'node_modules/(better-sqlite3|pg|ioredis)/'] },
    },
    {
      name: 'http-mounts-the-ui-whole', severity: 'error',
      comment: 'app.ts registers the interface through ui/index.tsx only',
      from: { path: '^src/http/' },
      to: { path: '^src/ui/', pathNot: '^src/ui/index\\.tsx$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
