/*
 * The customer records the staff side reads, for other modules that show a customer to staff
 * (the support desk's context panel, issue 46): the same queries as the customer area.
 */
export {
  findLinesOfCustomer,
  findOrdersOfCustomer,
  findPaymentsOfCustomer,
  type LineWithAccount,
  type PaymentWithKind,
} from './customers-repo';
