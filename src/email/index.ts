/** The email context's public surface: delivery of the outbox (the worker runs it in the background). */
export { EmailDelivery, INTERRUPTED_ERROR } from './application/email-delivery.js';
