// Outgoing mail: real SMTP when SMTP_URL is set, otherwise an outbox folder (and the link in the log).
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'

export interface Mail {
  to: string
  subject: string
  text: string
  /** The one link the mail is about (reset, setup). Logged in outbox mode so a local user can follow it. */
  link?: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
}

const FROM = 'Advice Studio <no-reply@advice.studio>'

export function createMailer(opts: { smtpUrl?: string; outboxDir: string; log: { info(obj: object, msg: string): void } }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl)
    return { send: async (mail) => { await transport.sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text }) } }
  }
  const transport = nodemailer.createTransport({ jsonTransport: true })
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text })
      await mkdir(opts.outboxDir, { recursive: true })
      const file = path.join(opts.outboxDir, `${Date.now()}-${info.messageId.replace(/[^a-z0-9]/gi, '')}.json`)
      await writeFile(file, JSON.stringify({ ...JSON.parse(info.message as unknown as string), link: mail.link }, null, 2))
      opts.log.info({ to: mail.to, link: mail.link, file }, `mail written to outbox: ${mail.subject}`)
    },
  }
}
