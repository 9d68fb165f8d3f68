export { escapeHtml, type MailBlock, type MailContent, type RenderedMail } from './layout.js';
export { createMailer, messageIdHeader, type MailMessage, type Mailer } from './mailer.js';
export {
  enqueueMail,
  sendMailJob,
  sendMailPayloadSchema,
  type MailInput,
  type SendMailDeps,
} from './send-mail.job.js';
export {
  MAIL_TEMPLATES,
  mailVarsSchemas,
  renderMail,
  type MailTemplate,
  type MailVars,
} from './templates.js';
