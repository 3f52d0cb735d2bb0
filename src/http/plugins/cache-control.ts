// Every answer of the browser app (pages, fragments, /api JSON, redirects, errors) is `Cache-Control: no-store`
// unless its route chose its own caching (uploaded files, the embed's script). Pages change with every edit and are
// private to whoever is signed in: Back after an edit must load the page again rather than show it without the edit,
// and after sign-out a shared browser must have nothing private left to show. Sign-in and sign-up pages carry a CSRF
// token of their session, so they are not stored either. Static assets are served outside this context and keep
// their max-age.
import fp from 'fastify-plugin'

export default fp(async function cacheControlPlugin(app) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    done(null, payload)
  })
}, { name: 'cache-control' })
